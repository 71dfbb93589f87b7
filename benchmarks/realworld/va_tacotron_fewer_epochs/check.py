import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("va_tacotron_fewer_epochs_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    (xt, yt), (xv, yv) = t["train_data"], t["val_data"]
    opt = t["optimizer"](model.parameters())
    torch.manual_seed(0)
    tr_hist, va_hist = [], []
    for epoch in range(2 * mod.EPOCHS):
        perm = torch.randperm(len(xt))
        tot = 0.0
        for i in range(0, len(xt), mod.BATCH_SIZE):
            idx = perm[i:i + mod.BATCH_SIZE]
            opt.zero_grad()
            loss = loss_fn(model(xt[idx]), yt[idx])
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        tr_hist.append(tot / len(xt))
        with torch.no_grad():
            va_hist.append(loss_fn(model(xv), yv).item())
    e = mod.EPOCHS
    last_drop_tr = tr_hist[e - 2] - tr_hist[e - 1]
    last_drop_va = va_hist[e - 2] - va_hist[e - 1]
    assert last_drop_tr > 0.01 * tr_hist[e - 1], tr_hist[:e]
    assert last_drop_va > 0, va_hist[:e]
    assert va_hist[-1] < 0.9 * va_hist[e - 1], (va_hist[e - 1], va_hist[-1])
    return (f"after the configured {e} epochs train L1 {tr_hist[e - 1]:.3f} (still dropping {last_drop_tr:.3f}/epoch), "
            f"val L1 {va_hist[e - 1]:.3f} also falling; {2 * e} epochs reach val {va_hist[-1]:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
