"""Train the folded-batch model and the per-image model on the same 8 cells; compare shapes, warning and fit."""

import importlib.util
import warnings
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_hpa_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(fold):
    tg = _t.make_target(fold)
    model, (x, y) = tg["model"], tg["batch"]
    opt = tg["optimizer"](model.parameters())
    caught = []
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        for _ in range(150):
            opt.zero_grad()
            loss = tg["loss_fn"](model(x), y)
            loss.backward()
            opt.step()
        caught = [str(m.message) for m in w if "target size" in str(m.message)]
    out = model(x).detach()
    per_image = ((out - y) ** 2).mean().item()
    return tuple(out.shape), caught, loss.item(), per_image


def _check() -> str:
    shp_bad, warn_bad, loss_bad, pi_bad = _train(True)
    shp_good, warn_good, loss_good, pi_good = _train(False)
    assert shp_bad == (1, 18) and shp_good == (8, 18), (shp_bad, shp_good)
    assert warn_bad and not warn_good
    assert loss_bad > 0.1 and loss_good < 0.1 * loss_bad, (loss_bad, loss_good)
    return (f"folded flatten: output {shp_bad} vs target (8, 18), broadcast warning raised, loss stalls at "
            f"{loss_bad:.3f}; per-image flatten: output {shp_good}, loss {loss_good:.4f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
