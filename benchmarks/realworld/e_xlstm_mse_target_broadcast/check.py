"""Train the forecaster as configured (every step's output vs the one next value) and with the last step only."""

import importlib.util
import pathlib
import warnings

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_e_xlstm_mse_target_broadcast_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, last_only):
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    seen = []
    for _ in range(2):
        for x, y in t["train_data"]:
            opt.zero_grad()
            pred = model(x)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                loss = F.mse_loss(pred[-1:], y) if last_only else t["loss_fn"](pred, y)
            seen += [str(w.message) for w in caught]
            loss.backward()
            opt.step()
    with torch.no_grad():
        err = sum(F.mse_loss(model(x)[-1:], y).item() for x, y in t["val_data"]) / len(t["val_data"])
    return err, seen


def _check() -> str:
    mod = _load()
    bug, warned = _train(mod, last_only=False)
    ok, clean = _train(mod, last_only=True)
    assert any("target size" in w for w in warned) and not clean
    assert bug > 3 * ok, (bug, ok)
    return f"val MSE of the forecast {bug:.4f} when all {mod.WINDOW} step outputs are fit to the (1, 1) target (broadcast warning), {ok:.4f} when shapes match"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
