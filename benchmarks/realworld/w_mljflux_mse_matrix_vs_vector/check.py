"""Train the target's regressor with its loss ((B,1) - (B,) broadcast) and with the shapes aligned."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("w_mljflux_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(aligned):
    tg = _t.make_target()
    model, loss_fn = tg["model"], tg["loss_fn"]
    opt = tg["optimizer"](model.parameters())
    x, y = tg["train_data"]
    for _ in range(40):
        for i in range(0, 512, 64):
            opt.zero_grad()
            out = model(x[i:i + 64])
            loss = loss_fn(out.squeeze(-1) if aligned else out, y[i:i + 64])
            loss.backward()
            opt.step()
    with torch.no_grad():
        pred = model(x)
    return _t.r2(pred, y), float(pred.std()), float(y.std()), tuple((pred - y).shape)


def _check() -> str:
    bad_r2, bad_std, y_std, shape = _train(False)
    ok_r2, ok_std, _, _ = _train(True)
    assert shape == (512, 512), shape
    assert bad_r2 < 0.1 and bad_std < 0.2 * y_std, (bad_r2, bad_std, y_std)
    assert ok_r2 > 0.9, ok_r2
    return (f"(B,1) prediction minus (B,) target -> {shape} matrix: train R^2 {bad_r2:.2f}, prediction std {bad_std:.3f} "
            f"vs target std {y_std:.3f}; shapes aligned: R^2 {ok_r2:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
