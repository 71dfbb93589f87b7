"""Binary focal loss written with log(p) / log(1 - p) on sigmoid outputs: once an edge score saturates,
p == 1.0 exactly in float32, log(1 - p) = -inf and 0 * -inf = NaN."""

import math

import torch
import torch.nn as nn


def focal_loss(logits, y, gamma=2.0, alpha=0.25):
    p = torch.sigmoid(logits)
    pos = -alpha * y * (1 - p) ** gamma * torch.log(p)
    neg = -(1 - alpha) * (1 - y) * p**gamma * torch.log(1 - p)
    return (pos + neg).mean()


def focal_loss_masked(logits, y, gamma=2.0, alpha=0.25):
    p = torch.sigmoid(logits).clamp(1e-7, 1 - 1e-7)
    pos = -alpha * y * (1 - p) ** gamma * torch.log(p)
    neg = -(1 - alpha) * (1 - y) * p**gamma * torch.log(1 - p)
    return (pos + neg).mean()


def _edges(n, g):
    # edge features in detector units: (delta r [mm], delta phi [rad], delta z [mm], hit-pair residual [mm]);
    # true edges are geometrically tight, fake ones are not
    y = (torch.rand(n, generator=g) < 0.3).float()
    dr = 30 + 5 * torch.randn(n, generator=g)
    dphi = 0.01 * torch.randn(n, generator=g)
    dz = torch.where(y > 0, 3 * torch.randn(n, generator=g), 300 * torch.randn(n, generator=g))
    res = torch.where(y > 0, 0.5 * torch.rand(n, generator=g), 5 + 200 * torch.rand(n, generator=g))
    return torch.stack([dr, dphi, dz, res], 1), y


def _train(loss_fn):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    x, y = _edges(2048, g)
    net = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    losses = []
    for epoch in range(60):
        for i in range(0, len(x), 256):
            loss = loss_fn(net(x[i : i + 256]).squeeze(-1), y[i : i + 256])
            losses.append(loss.item())
            if not math.isfinite(losses[-1]):
                return losses
            opt.zero_grad()
            loss.backward()
            opt.step()
    return losses


def _check() -> str:
    bad = _train(focal_loss)
    good = _train(focal_loss_masked)
    assert not math.isfinite(bad[-1]), f"focal loss stayed finite: {bad[-1]}"
    assert all(math.isfinite(v) for v in good), "the masked focal loss also went non-finite"
    first_ok = bad[0]
    return (
        f"log(p)/log(1-p) focal loss: {first_ok:.4f} at step 0, {bad[-1]} at step {len(bad) - 1}; "
        f"probabilities clamped away from 0/1: finite for all {len(good)} steps (last {good[-1]:.2e})"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
