"""With the default learning rate the loss stalls high and noisy; a much smaller one converges."""

import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_i_fastspeech_frozen_lr_too_big_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, t, lr):
    torch.manual_seed(0)
    model = mod.MelPredictor()
    opt = torch.optim.Adam(model.parameters(), lr=lr) if lr else t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(8):
        for i in range(0, len(x), 16):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 16]), y[i : i + 16]).backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        return t["loss_fn"](model(vx), vy).item()


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    default, lower = _train(mod, t, None), _train(mod, t, 0.003)
    assert default > 5 * lower and default > 0.3, (default, lower)
    return f"8 epochs: validation L1 {default:.2f} with the default lr 0.1, {lower:.2f} with lr 0.003"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
