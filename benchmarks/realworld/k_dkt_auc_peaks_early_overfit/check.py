import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_k_dkt_auc_peaks_early_overfit_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    xv, yv = t["val_data"]
    epochs = 100
    train_losses, val_aucs = [], []
    for _ in range(epochs):
        model.train()
        opt.zero_grad()
        loss = t["loss_fn"](model(x), y)
        loss.backward()
        opt.step()
        train_losses.append(loss.item())
        model.eval()
        with torch.no_grad():
            val_aucs.append(t["metric_fn"](model(xv), yv))
    best = max(range(epochs), key=lambda e: val_aucs[e])
    assert best < 0.35 * epochs, (best, val_aucs[best])
    assert val_aucs[-1] < val_aucs[best] - 0.03, (val_aucs[best], val_aucs[-1])
    assert train_losses[-1] < 0.7 * train_losses[best], (train_losses[best], train_losses[-1])
    return (
        f"val AUC peaks at epoch {best + 1}/{epochs} ({val_aucs[best]:.3f}) and ends at {val_aucs[-1]:.3f}, "
        f"while train loss keeps falling {train_losses[best]:.3f} -> {train_losses[-1]:.3f}"
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
