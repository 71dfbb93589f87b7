"""Self-contained: a generator trained with L1 + a colour term computed through numpy, at colour weight 0 and 10."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def color_loss(generated, target):
    gen = generated.detach().cpu().numpy()
    tgt = target.detach().cpu().numpy()
    import numpy as np

    return torch.tensor(np.abs(gen.mean(axis=(2, 3)) - tgt.mean(axis=(2, 3))).mean())


def _train(weight):
    torch.manual_seed(0)
    gen = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))
    opt = torch.optim.Adam(gen.parameters(), lr=1e-2)
    g = torch.Generator().manual_seed(1)
    target = torch.rand(4, 3, 12, 12, generator=g)
    raw = target * torch.tensor([1.4, 0.7, 1.0]).view(1, 3, 1, 1) + 0.05 * torch.randn(4, 3, 12, 12, generator=g)
    for _ in range(20):
        opt.zero_grad()
        out = gen(raw)
        loss = F.l1_loss(out, target) + weight * color_loss(out, target)
        loss.backward()
        opt.step()
    with torch.no_grad():
        out = gen(raw)
    return out, color_loss(out, target).item()


def _run() -> str:
    out0, c0 = _train(0.0)
    out10, c10 = _train(10.0)
    diff = (out0 - out10).abs().max().item()
    assert diff < 1e-6, diff
    return f"colour weight 0 vs 10: generator outputs identical (max diff {diff:.1e}), colour loss {c0:.4f} vs {c10:.4f}"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
