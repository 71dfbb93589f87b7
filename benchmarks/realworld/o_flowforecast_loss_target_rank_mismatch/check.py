"""Output (N,1,1) vs target (N,1): MSELoss broadcasts to (N,N,1) and the model can only learn the mean."""

import importlib.util
import warnings
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("o_flowforecast_bcast_target", p)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _train(m, squeeze):
    t = m.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for epoch in range(15):
        for i in range(0, len(x), 32):
            out = model(x[i:i + 32])
            if squeeze:
                out = out.squeeze(-1)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                loss = loss_fn(out, y[i:i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
    xv, yv = t["val_data"]
    with torch.no_grad():
        pred = model(xv).reshape(-1)
    mse = ((pred - yv.reshape(-1)) ** 2).mean().item()
    return mse, pred.std().item(), yv.std().item()


def _check() -> str:
    m = _load()
    bad_mse, bad_std, y_std = _train(m, squeeze=False)
    ok_mse, ok_std, _ = _train(m, squeeze=True)
    assert bad_mse > 0.7 and bad_std < 0.35 * y_std and ok_mse < 0.2, (bad_mse, bad_std, ok_mse)
    return (f"(N,1,1) vs (N,1): val MSE {bad_mse:.2f}, prediction std {bad_std:.3f} vs target std {y_std:.2f} "
            f"(flat line); shapes matched: val MSE {ok_mse:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
