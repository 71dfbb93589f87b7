import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_j_sample4geo_epochs_overfit_a_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    vx, vy = t["val_data"]
    hist = []
    for _ in range(60):
        perm = torch.randperm(len(x))
        for i in range(0, len(x), 20):
            idx = perm[i : i + 20]
            opt.zero_grad()
            loss_fn(model(x[idx]), y[idx]).backward()
            opt.step()
        with torch.no_grad():
            hist.append((loss_fn(model(x), y).item(), loss_fn(model(vx), vy).item(), t["metric_fn"](model(vx), vy)))
    best = min(range(len(hist)), key=lambda i: hist[i][1])
    tr_end, va_end, acc_end = hist[-1]
    assert tr_end < 0.01 and va_end > 1.3 * hist[best][1] and acc_end < 0.5 and best < 20, (best, hist[best], hist[-1])
    return (
        f"val loss is lowest at epoch {best + 1} ({hist[best][1]:.2f}, val acc {hist[best][2]:.2f}); at epoch 60 "
        f"train loss {tr_end:.3f}, val loss {va_end:.2f}, val acc {acc_end:.2f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        torch.manual_seed(0)
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
