import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_c_protocontra_module_requires_grad_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model = t["model"]
    before = model.outc.weight.detach().clone()
    mid_before = model.mid.weight.detach().clone()
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(20):
        opt.zero_grad()
        t["loss_fn"](model(x), y).backward()
        opt.step()
    moved = float((model.outc.weight - before).abs().mean())
    mid_moved = float((model.mid.weight - mid_before).abs().mean())
    assert model.outc.weight.requires_grad and moved > 0.3 * mid_moved, (moved, mid_moved)
    return (
        f"after 20 steps the 'frozen' outc moved {moved:.4f} per weight (mid layer {mid_moved:.4f}); "
        f"outc.weight.requires_grad is still {model.outc.weight.requires_grad}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
