"""Train the target for a few epochs with its per-batch StepLR, and with the same schedule stepped per epoch."""

import importlib.util
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("m_stgcn_target", HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, per_batch, epochs=8):
    t = mod.make_target()
    torch.manual_seed(1)
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    xv, yv = t["val_data"]
    xt, yt = t["train_data"].dataset.tensors
    bs = t["train_data"].batch_size
    g = torch.Generator().manual_seed(2)
    lrs, vals = [], []
    for _ in range(epochs):
        perm = torch.randperm(len(xt), generator=g)
        for i in range(0, len(xt), bs):
            x, y = xt[perm[i:i + bs]], yt[perm[i:i + bs]]
            model.train()
            opt.zero_grad()
            loss_fn(model(x), y).backward()
            opt.step()
            if per_batch:
                opt.scheduler.step()
        if not per_batch:
            opt.scheduler.step()
        lrs.append(opt.param_groups[0]["lr"])
        with torch.no_grad():
            model.eval()
            vals.append(loss_fn(model(xv), yv).item())
    return lrs, vals


def _check() -> str:
    mod = _load()
    bad_lr, bad_val = _run(mod, per_batch=True)
    ok_lr, ok_val = _run(mod, per_batch=False)
    assert bad_lr[-1] < 1e-3 * 1e-2, bad_lr[-1]  # lr collapsed by > 100x
    assert ok_lr[-1] > 0.9e-3, ok_lr[-1]
    late_change = abs(bad_val[-1] - bad_val[4]) / bad_val[4]
    assert late_change < 0.05, (bad_val[4], bad_val[-1])  # learning has stalled
    assert ok_val[-1] < 0.8 * bad_val[-1], (ok_val[-1], bad_val[-1])
    return (
        f"StepLR stepped per batch: lr 1e-3 -> {bad_lr[-1]:.1e} after {len(bad_lr)} epochs, val MSE "
        f"{bad_val[4]:.3f} (ep 5) -> {bad_val[-1]:.3f}; stepped per epoch: lr {ok_lr[-1]:.1e}, val MSE {ok_val[-1]:.3f}"
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
