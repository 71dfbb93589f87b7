import importlib.util
import pathlib
import warnings

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_k_walkforward_pred_len1_mse_broadcast_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, fix):
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for epoch in range(15):
            for i in range(0, len(x), 64):
                out = model(x[i : i + 64])
                target = y[i : i + 64]
                loss = loss_fn(out, target.view_as(out) if fix else target)
                opt.zero_grad()
                loss.backward()
                opt.step()
    xv, yv = t["val_data"]
    with torch.no_grad():
        pred = model(xv).squeeze(1)
    return ((pred - yv) ** 2).mean().item(), pred.std().item() / yv.std().item()


def _check() -> str:
    mod = _load()
    mse_bug, spread_bug = _train(mod, fix=False)
    mse_fix, spread_fix = _train(mod, fix=True)
    assert spread_bug < 0.2, spread_bug
    assert mse_bug > 5 * mse_fix, (mse_bug, mse_fix)
    return (
        f"(B,1) predictions vs (B,) targets: val MSE {mse_bug:.3f}, prediction spread {spread_bug:.2f} of the "
        f"targets'; with matching shapes: val MSE {mse_fix:.3f}, spread {spread_fix:.2f}"
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
