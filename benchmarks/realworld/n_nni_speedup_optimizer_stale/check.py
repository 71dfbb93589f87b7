import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_n_nni_speedup_optimizer_stale_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _finetune(mod, fresh_optimizer):
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model)
    if fresh_optimizer:
        opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    before = [p.detach().clone() for p in model.parameters()]
    x, y = t["train_data"]
    losses = []
    for epoch in range(3):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            loss = t["loss_fn"](model(x[i : i + 32]), y[i : i + 32])
            loss.backward()
            opt.step()
            losses.append(loss.item())
    moved = max((p - b).abs().max().item() for p, b in zip(model.parameters(), before))
    grad = max(p.grad.abs().max().item() for p in model.parameters())
    return losses, moved, grad


def _check() -> str:
    mod = _load()
    losses, moved, grad = _finetune(mod, fresh_optimizer=False)
    ok_losses, ok_moved, _ = _finetune(mod, fresh_optimizer=True)
    assert moved == 0.0 and grad > 0, (moved, grad)
    assert ok_moved > 0 and ok_losses[-1] < losses[-1] - 0.2, (ok_moved, ok_losses[-1], losses[-1])
    return (
        f"finetuning after speedup: max weight change {moved} over 24 steps although |grad| reaches {grad:.3f}, "
        f"loss {losses[0]:.2f} -> {losses[-1]:.2f}; optimizer rebuilt after speedup: loss {ok_losses[0]:.2f} -> {ok_losses[-1]:.2f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
