"""With the initial learning rate at 1.0 the denoiser's loss explodes on the first update and never recovers (it ends
above where it started); the same run at 1e-3 trains normally."""

import importlib.util
import math
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("x_imc_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _run(lr):
    torch.manual_seed(0)
    model = _t.Denoiser()
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    g = torch.Generator().manual_seed(1)
    losses = []
    for _ in range(60):
        x, y = _t.make_batch(g)
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def _check() -> str:
    bad = _run(_t.TRAIN_INITIAL_LR)
    ok = _run(1e-3)
    first_bad = next((i for i, v in enumerate(bad) if not math.isfinite(v) or v > 1e3 * bad[0]), None)
    assert first_bad is not None and bad[-1] > 2 * bad[0], (bad[:3], bad[-1])
    assert all(math.isfinite(v) for v in ok) and ok[-1] < 0.5 * ok[0], (ok[0], ok[-1])
    return (f"lr {_t.TRAIN_INITIAL_LR}: loss {bad[0]:.3f} -> {bad[first_bad]:.3g} at step {first_bad}, "
            f"last {bad[-1]:.2f}; lr 1e-3: {ok[0]:.3f} -> {ok[-1]:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
