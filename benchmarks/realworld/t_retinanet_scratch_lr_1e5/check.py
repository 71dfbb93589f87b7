"""Train from scratch with the configured Adam lr (1e-5) and with 1e-3: the small lr barely moves the loss."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("t_retinanet_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, lr=None):
    t = mod.make_target()
    model = t["model"]
    x, y = t["train_data"]
    opt = t["optimizer"](model.parameters()) if lr is None else torch.optim.Adam(model.parameters(), lr=lr)
    losses = []
    for s in range(100):
        i = (s * 64) % 256
        opt.zero_grad()
        loss = t["loss_fn"](model(x[i:i + 64]), y[i:i + 64])
        loss.backward()
        opt.step()
        losses.append(loss.item())
    with torch.no_grad():
        acc = (model(x).argmax(1) == y).float().mean().item()
    return sum(losses[:4]) / 4, sum(losses[-4:]) / 4, acc


def _check() -> str:
    mod = _load()
    b0, b1, bacc = _train(mod)
    g0, g1, gacc = _train(mod, lr=1e-3)
    assert (b0 - b1) / b0 < 0.05 and bacc < 0.65, (b0, b1, bacc)
    assert g1 < 0.5 * g0 and gacc > 0.9, (g0, g1, gacc)
    return (
        f"Adam lr 1e-5 from scratch, 100 steps: loss {b0:.3f} -> {b1:.3f}, acc {bacc:.2f}; "
        f"lr 1e-3: loss {g0:.3f} -> {g1:.3f}, acc {gacc:.2f}"
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
