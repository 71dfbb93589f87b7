import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_j_sb3_float_pixels_unscaled_b_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, t, scale):
    torch.manual_seed(0)
    model = mod.CnnExtractor()
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(6):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 32] * scale), y[i : i + 32]).backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        out = model(vx * scale)
        acc = t["metric_fn"](out, vy)
    return acc if math.isfinite(out.sum().item()) else 0.0


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    raw, scaled = _train(mod, t, 1.0), _train(mod, t, 1 / 255)
    assert scaled > 0.9 and raw < 0.6, (raw, scaled)
    return f"val accuracy {raw:.2f} on raw 0-255 float pixels, {scaled:.2f} with pixels divided by 255"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
