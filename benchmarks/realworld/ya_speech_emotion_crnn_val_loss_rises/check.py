import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("ya_ser_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    (xt, yt), (xv, yv) = t["train_data"], t["val_data"]
    tr, va = [], []
    torch.manual_seed(0)
    for epoch in range(30):
        model.train()
        for i in range(0, len(xt), 32):
            opt.zero_grad()
            loss_fn(model(xt[i:i + 32]), yt[i:i + 32]).backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            tr.append(loss_fn(model(xt), yt).item())
            va.append(loss_fn(model(xv), yv).item())
    best = min(range(len(va)), key=va.__getitem__)
    assert tr[-1] < 0.3 * tr[0], tr
    assert 2 <= best <= 20, (best, va)
    assert va[-1] > 1.3 * va[best], (va[best], va[-1])
    return (f"train loss {tr[0]:.2f} -> {tr[-1]:.3f} over 30 epochs; val loss falls to {va[best]:.2f} at epoch "
            f"{best + 1} and rises to {va[-1]:.2f} by epoch 30")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
