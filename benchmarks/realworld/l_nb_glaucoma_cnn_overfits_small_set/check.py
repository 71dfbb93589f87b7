import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_l_nb_glaucoma_cnn_overfits_small_set_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _eval(t, model, data):
    x, y = data
    with torch.no_grad():
        out = model(x)
    return t["loss_fn"](out, y).item(), t["metric_fn"](out, y)


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    hist = []
    for ep in range(60):
        for i in range(0, len(x), 16):
            loss = t["loss_fn"](model(x[i : i + 16]), y[i : i + 16])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if ep % 3 == 2:
            hist.append((_eval(t, model, t["train_data"]), _eval(t, model, t["val_data"])))
    (tr_loss, tr_acc), (va_loss, va_acc) = hist[-1]
    best_val = min(h[1][0] for h in hist)
    best_val_acc = max(h[1][1] for h in hist)
    assert tr_acc == 1.0 and tr_loss < 0.05, (tr_acc, tr_loss)
    assert va_acc < 0.85 and va_loss > 1.5 * best_val, (va_acc, va_loss, best_val)
    assert best_val_acc > 0.6, best_val_acc
    return (
        f"64 training images: train acc {tr_acc:.2f} (loss {tr_loss:.4f}), val acc {va_acc:.2f}; val loss bottoms at "
        f"{best_val:.3f} then climbs to {va_loss:.3f}; best val acc {best_val_acc:.2f} (the model does learn the signal)"
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
