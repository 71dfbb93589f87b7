"""Same batch twice in train mode gives different outputs; training with the accumulating norm lags nn.BatchNorm1d."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn


def _load():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("t_bnacc_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _train(model, x, y, steps=600):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    g = torch.Generator().manual_seed(2)
    for _ in range(steps):
        idx = torch.randint(0, 1536, (64,), generator=g)
        loss = F.mse_loss(model(x[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        return F.mse_loss(model(x[1536:]), y[1536:]).item()


def _check() -> str:
    t = _load()
    x, y = t.data()
    torch.manual_seed(0)
    m = t.Net()
    b = x[:64]
    o1 = m(b).detach()
    for i in range(1, 20):
        m(x[64 * i:64 * (i + 1)] * 3 + 1)  # other batches pushed through
    o2 = m(b).detach()
    drift = (o1 - o2).abs().max().item()
    torch.manual_seed(0)
    ref = t.Net()
    ref.bn = nn.BatchNorm1d(64)
    r1 = ref(b).detach()
    for i in range(1, 20):
        ref(x[64 * i:64 * (i + 1)] * 3 + 1)
    r2 = ref(b).detach()
    ref_drift = (r1 - r2).abs().max().item()
    assert drift > 0.05 and ref_drift < 1e-5, (drift, ref_drift)
    return (f"same batch, train mode, same weights, before/after 19 other batches: max output change {drift:.3f} "
            f"(per-batch BatchNorm1d: {ref_drift:.1e})")

def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

