import importlib.util
import pathlib
import warnings

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_j_sktime_regressor_broadcast_b_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(squeeze):
    mod = _load()
    t = mod.make_target()
    torch.manual_seed(0)
    model = mod.FCNRegressor()
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(15):
        for i in range(0, len(x), 32):
            out = model(x[i : i + 32])
            if squeeze:
                out = out.squeeze(-1)
            opt.zero_grad()
            t["loss_fn"](out, y[i : i + 32]).backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        pred = model(vx).reshape(-1)
    return torch.nn.functional.mse_loss(pred, vy).item(), pred.std().item(), vy.var().item()


def _check() -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bad, spread, var = _train(False)
        good, _, _ = _train(True)
    assert bad > 0.8 * var and good < 0.3 * var, (bad, good, var)
    assert spread < 0.2 * var ** 0.5, spread
    return f"val MSE {bad:.2f} with (B,1) vs (B,) targets (target variance {var:.2f}); {good:.2f} after squeezing"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
