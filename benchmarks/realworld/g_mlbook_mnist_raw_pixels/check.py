import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_g_mlbook_mnist_raw_pixels_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, scale):
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(50):
        for i in range(0, len(x), 100):
            opt.zero_grad()
            F.cross_entropy(model(x[i : i + 100] * scale), y[i : i + 100]).backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        return (model(vx * scale).argmax(1) == vy).float().mean().item()


def _check() -> str:
    mod = _load()
    raw = _train(mod, 1.0)
    scaled = _train(mod, 1 / 255)
    assert raw < 0.5 and scaled > 0.9, (raw, scaled)
    return f"val accuracy after 50 epochs: {raw:.2f} on 0-255 pixels, {scaled:.2f} on pixels / 255"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
