"""Train the heatmap head: the focal loss on unclamped sigmoid outputs becomes NaN once outputs saturate."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("t_rtm3d_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, clamp):
    t = mod.make_target()
    model, (x, gt) = t["model"], t["batch"]
    opt = t["optimizer"](model.parameters())
    losses = []
    for _ in range(150):
        opt.zero_grad()
        pred = model(x)
        if clamp:
            pred = pred.clamp(1e-4, 1 - 1e-4)
        loss = t["loss_fn"](pred, gt)
        losses.append(loss.item())
        if not torch.isfinite(loss):
            break
        loss.backward()
        opt.step()
    return losses


def _check() -> str:
    mod = _load()
    bad = _run(mod, clamp=False)
    ok = _run(mod, clamp=True)
    assert not torch.isfinite(torch.tensor(bad[-1])), bad[-5:]
    assert min(bad[:-1]) < bad[0], bad[:5]
    assert all(torch.isfinite(torch.tensor(ok))), ok[-5:]
    return (
        f"unclamped sigmoid focal loss: {bad[0]:.2f} -> {min(bad[:-1]):.3f} then {bad[-1]} at step {len(bad) - 1}; "
        f"clamped to [1e-4, 1-1e-4]: finite for {len(ok)} steps, final {ok[-1]:.3f}"
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
