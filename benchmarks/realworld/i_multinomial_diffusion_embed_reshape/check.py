"""The plain reshape scrambles pixels into channels: per-pixel accuracy stays far below the permuted version."""

import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location(
        "rw_i_multinomial_diffusion_embed_reshape_target", _HERE / "target.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, t, fixed):
    torch.manual_seed(0)
    model = mod.MapNet(channels_last_fixed=fixed)
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(8):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 32]), y[i : i + 32]).backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        return t["metric_fn"](model(vx), vy)


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    bad, good = _train(mod, t, False), _train(mod, t, True)
    assert good > 0.95 and bad < 0.75, (bad, good)
    return f"8 epochs: per-pixel val accuracy {bad:.2f} with reshape, {good:.2f} with permute"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
