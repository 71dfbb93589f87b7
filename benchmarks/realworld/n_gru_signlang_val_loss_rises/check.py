import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_n_gru_signlang_val_loss_rises_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    xv, yv = t["val_data"]
    hist = []
    for epoch in range(40):
        model.train()
        for i in range(0, len(x), 32):
            opt.zero_grad()
            loss_fn(model(x[i : i + 32]), y[i : i + 32]).backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            out, outv = model(x), model(xv)
            hist.append((loss_fn(out, y).item(), loss_fn(outv, yv).item(), mod.accuracy(out, y), mod.accuracy(outv, yv)))
    best = min(range(len(hist)), key=lambda e: hist[e][1])
    tr_loss, va_loss, tr_acc, va_acc = hist[-1]
    assert best < 30 and va_loss > hist[best][1] + 0.3, (best, hist[best][1], va_loss)
    assert tr_loss < hist[best][0] * 0.5 and tr_acc > 0.95, (tr_loss, hist[best][0], tr_acc)
    assert va_acc >= hist[best][3] - 0.1, (va_acc, hist[best][3])
    return (
        f"val loss lowest at epoch {best + 1} ({hist[best][1]:.2f}), {va_loss:.2f} at epoch 40 while train loss "
        f"{hist[best][0]:.2f} -> {tr_loss:.3f}; val acc {hist[best][3]:.2f} -> {va_acc:.2f}, train acc {tr_acc:.2f}"
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
