"""Train the conditional field with labels left in the old order vs permuted together with x1, then sample."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_cfm_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(fixed):
    torch.manual_seed(0)
    model = _t.VectorField()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    g = torch.Generator().manual_seed(1)
    for _ in range(300):
        x1, y = _t.make_data(g, 256)
        x0 = torch.randn(x1.shape, generator=g)
        perm = torch.randperm(256, generator=g)
        x1p = x1[perm]
        yc = y[perm] if fixed else y
        t = torch.rand(256, generator=g)
        xt = (1 - t[:, None]) * x0 + t[:, None] * x1p
        opt.zero_grad()
        loss = ((model(t, xt, yc) - (x1p - x0)) ** 2).mean()
        loss.backward()
        opt.step()
    ys = torch.arange(4).repeat_interleave(100)
    x = torch.randn(400, 2, generator=torch.Generator().manual_seed(5))
    with torch.no_grad():
        for k in range(20):
            x = x + 0.05 * model(torch.full((400,), k / 20), x, ys)
    hit = (torch.cdist(x, _t.CENTERS).argmin(1) == ys).float().mean().item()
    return hit


def _check() -> str:
    bad, good = _train(False), _train(True)
    assert bad < 0.4, bad
    assert good > 0.9, good
    return (f"labels left in pre-pairing order: {bad:.0%} of generated points land in the requested class's "
            f"cluster (chance 25%); labels permuted with x1: {good:.0%}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
