"""Train the block as released (batch-first tensors into a seq-first attention) and with the transpose."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("x_aematter_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(fixed):
    torch.manual_seed(0)
    model = _t.AxialBlock(batch_first_input=not fixed)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(1)
    for _ in range(300):
        x, y = _t.make_batch(g)
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    x, y = _t.make_batch(torch.Generator().manual_seed(7))
    with torch.no_grad():
        val = F.mse_loss(model(x), y).item()
        x2 = x.clone()
        x2[1:] = torch.randn_like(x2[1:])  # change every other sample in the batch
        drift = (model(x2)[0] - model(x)[0]).abs().max().item()
    return val, drift, y.var().item()


def _check() -> str:
    val_bug, drift_bug, var = _train(False)
    val_ok, drift_ok, _ = _train(True)
    assert val_bug > 0.5 * var and val_bug > 5 * val_ok, (val_bug, val_ok, var)
    assert drift_bug > 1e-2 and drift_ok < 1e-5, (drift_bug, drift_ok)
    return (f"batch-first into seq-first attention: val MSE {val_bug:.3f} (target variance {var:.3f}), sample 0's "
            f"output moves by {drift_bug:.3f} when the other samples change; transposed: val MSE {val_ok:.3f}, "
            f"drift {drift_ok:.1e}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
