"""Train the student 30 steps and compare the memory before/after, plain tensors vs nn.Parameter."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_memory_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _run(as_parameters):
    torch.manual_seed(0)
    model = _t.Student(as_parameters)
    names = [n for n, _ in model.named_parameters()]
    keys0, enc0 = model.memory.keys.detach().clone(), model.enc[0][0].weight.detach().clone()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(0)
    for _ in range(30):
        x = _t.make_images(8, g)
        opt.zero_grad()
        loss = _t.distill_loss(model(x), x)
        loss.backward()
        opt.step()
    moved = (model.memory.keys.detach() - keys0).abs().max().item()
    enc_moved = (model.enc[0][0].weight.detach() - enc0).abs().max().item()
    return names, moved, enc_moved


def _check() -> str:
    names_bug, moved_bug, enc_bug = _run(False)
    names_ok, moved_ok, _ = _run(True)
    assert not any(n.startswith("memory.") for n in names_bug), names_bug
    assert moved_bug == 0.0 and enc_bug > 1e-3, (moved_bug, enc_bug)
    assert "memory.keys" in names_ok and moved_ok > 1e-3, moved_ok
    return (f"plain tensors: memory keys change by {moved_bug} after 30 Adam steps (not among the {len(names_bug)} "
            f"registered parameters) while the encoder moves by {enc_bug:.3f}; nn.Parameter: keys move by {moved_ok:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
