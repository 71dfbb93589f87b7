"""Training loss falls to ~0 while validation loss bottoms out early and then climbs."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("r_yolov7_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _check() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    xtr, ytr = t["train_data"]
    xva, yva = t["val_data"]
    tr, va = [], []
    for _ in range(150):
        for i in range(0, 80, 40):
            loss = loss_fn(model(xtr[i:i + 40]), ytr[i:i + 40])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            tr.append(loss_fn(model(xtr), ytr).item())
            va.append(loss_fn(model(xva), yva).item())
    best = min(range(len(va)), key=va.__getitem__)
    assert tr[-1] < 0.05 * tr[0], (tr[0], tr[-1])
    assert best < 50 and va[-1] > 2 * va[best], (best, va[best], va[-1])
    return (f"train loss {tr[0]:.3f} -> {tr[-1]:.4f}; val loss lowest {va[best]:.3f} at epoch {best + 1}, "
            f"then up to {va[-1]:.3f} at epoch {len(va)}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
