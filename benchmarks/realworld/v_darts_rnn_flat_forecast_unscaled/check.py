import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_v_darts_rnn_flat_forecast_unscaled_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(mod, t, scale):
    mu, sd = scale
    torch.manual_seed(0)
    model = mod.RNNForecaster()
    opt = t["optimizer"](model.parameters())
    for epoch in range(6):
        for x, y in t["train_data"]:
            opt.zero_grad()
            F.mse_loss(model((x - mu) / sd), (y - mu) / sd).backward()
            opt.step()
    xv, yv = t["val_data"]
    with torch.no_grad():
        pred = model((xv - mu) / sd) * sd + mu
    return pred, yv


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    pred_raw, yv = _fit(mod, t, (0.0, 1.0))
    x0 = torch.cat([x for x, _ in t["train_data"]])
    pred_sc, _ = _fit(mod, t, (x0.mean().item(), x0.std().item()))
    spread_true = yv[:, 0].std().item()
    spread_raw = pred_raw[:, 0].std().item()
    mae_raw = (pred_raw - yv).abs().mean().item()
    mae_sc = (pred_sc - yv).abs().mean().item()
    assert spread_raw < 0.1 * spread_true and mae_raw > 5 * mae_sc, (spread_raw, spread_true, mae_raw, mae_sc)
    return (
        f"raw-series model: forecast spread {spread_raw:.2f} vs true {spread_true:.1f}, MAE {mae_raw:.0f}; "
        f"same model on standardized series: MAE {mae_sc:.0f}"
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
