"""Train the target on raw 0..255 pixels vs the same pixels divided by 255."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("y_tf2book_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(scale):
    tg = _t.make_target()
    model = tg["model"]
    opt = tg["optimizer"](model.parameters())
    g = torch.Generator().manual_seed(1)
    x, y = _t.make_images(2048, g)
    xt, yt = _t.make_images(1024, g)
    accs = []
    for _ in range(5):
        for i in range(0, 2048, 32):
            opt.zero_grad()
            loss = F.cross_entropy(model(x[i:i + 32] * scale), y[i:i + 32])
            loss.backward()
            opt.step()
        with torch.no_grad():
            accs.append(_t.accuracy(model(xt * scale), yt))
    return accs


def _check() -> str:
    raw = _train(1.0)
    scaled = _train(1.0 / 255.0)
    assert max(raw) < 0.2, raw
    assert scaled[-1] > 0.9, scaled
    return (f"raw 0..255 pixels: test accuracy per epoch {[round(a, 3) for a in raw]}; "
            f"pixels / 255: {[round(a, 3) for a in scaled]}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
