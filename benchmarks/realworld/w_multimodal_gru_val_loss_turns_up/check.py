import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_w_mm_gru_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    tr_hist, va_hist, acc_hist = [], [], []
    for epoch in range(30):
        model.train()
        tl = 0.0
        for (xt, xa), y in t["train_data"]:
            opt.zero_grad()
            loss = loss_fn(model(xt, xa), y)
            loss.backward()
            opt.step()
            tl += loss.item() / len(t["train_data"])
        model.eval()
        with torch.no_grad():
            vl = sum(loss_fn(model(vt, va), vy).item() for (vt, va), vy in t["val_data"]) / len(t["val_data"])
            acc = sum(t["metric_fn"](model(vt, va), vy) for (vt, va), vy in t["val_data"]) / len(t["val_data"])
        tr_hist.append(tl)
        va_hist.append(vl)
        acc_hist.append(acc)
    best = min(range(30), key=lambda e: va_hist[e])
    assert best < 20 and va_hist[-1] > va_hist[best] + 0.3, (best, va_hist[best], va_hist[-1])
    assert tr_hist[-1] < 0.5 * tr_hist[best], (tr_hist[best], tr_hist[-1])
    assert max(acc_hist) > 0.45, max(acc_hist)
    return (f"val loss {va_hist[0]:.2f} -> min {va_hist[best]:.2f} at epoch {best} -> {va_hist[-1]:.2f} at epoch 29 "
            f"while train loss falls {tr_hist[best]:.2f} -> {tr_hist[-1]:.2f}; val acc peaks {max(acc_hist):.2f}, "
            f"ends {acc_hist[-1]:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
