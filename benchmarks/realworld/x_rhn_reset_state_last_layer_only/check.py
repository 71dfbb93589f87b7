"""After reset_state() only the last layer starts from zero: the output for a sequence depends on the batch seen before
it, and a regressor on independent sequences trains worse than with every layer reset."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("x_rhn_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


class _Fixed(_t.StackedRHN):
    def reset_state(self):
        for layer in self.layers:
            layer.h = None


def _run(cls):
    torch.manual_seed(0)
    model = cls()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(1)
    for _ in range(150):
        x, y = _t.make_batch(g)
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    xv, yv = _t.make_batch(torch.Generator().manual_seed(9))
    with torch.no_grad():
        model(torch.randn(32, 10, 4, generator=torch.Generator().manual_seed(5)) * 3)
        after_a = model(xv)
        model(-xv)
        after_b = model(xv)
    return (after_a - after_b).abs().max().item(), F.mse_loss(after_b, yv).item()


def _check() -> str:
    drift, mse = _run(_t.StackedRHN)
    ok_drift, ok_mse = _run(_Fixed)
    assert drift > 0.05, drift
    assert ok_drift < 1e-6, ok_drift
    assert mse > 1.5 * ok_mse, (mse, ok_mse)
    return (f"last-layer-only reset: same validation batch after two different previous batches differs by up to "
            f"{drift:.3f}, val MSE {mse:.3f}; all layers reset: difference {ok_drift:.1e}, val MSE {ok_mse:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
