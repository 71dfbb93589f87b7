"""The naive ways the benchmark compares against (as a lesson on debugging networks does them):
one backward pass per output row for batch dependence, and per-element finite differences over a
few elements of each parameter for the gradient check."""

from __future__ import annotations

import torch
from torch import nn


def naive_dependency(model: nn.Module, x: torch.Tensor, tol: float = 1e-6) -> tuple[set[int], int]:
    """Rows that leak into other rows' outputs, found with one backward pass per output row."""
    x = x.detach().clone().requires_grad_(True)
    y = model(x)
    leaking: set[int] = set()
    passes = 0
    for i in range(x.shape[0]):
        (g,) = torch.autograd.grad(y[i].sum(), x, retain_graph=True)
        passes += 1
        norms = g.reshape(x.shape[0], -1).norm(dim=1)
        leaking |= {j for j in range(x.shape[0]) if j != i and norms[j] > tol * (norms.max() + 1e-30)}
    return leaking, passes


def naive_gradcheck(model: nn.Module, loss: callable, per_tensor: int = 5, eps: float = 1e-6) -> tuple[float, float]:
    """Max relative difference over `per_tensor` random elements of each parameter; returns (diff, coverage)."""
    model.zero_grad()
    loss().backward()
    worst, checked, total = 0.0, 0, 0
    gen = torch.Generator().manual_seed(0)
    for p in model.parameters():
        total += p.numel()
        flat = p.data.view(-1)
        grad = p.grad.view(-1)
        for idx in torch.randperm(p.numel(), generator=gen)[:per_tensor].tolist():
            old = float(flat[idx])
            with torch.no_grad():
                flat[idx] = old + eps
                up = float(loss())
                flat[idx] = old - eps
                down = float(loss())
                flat[idx] = old
            num, ana = (up - down) / (2 * eps), float(grad[idx])
            worst = max(worst, abs(num - ana) / max(abs(num), abs(ana), 1e-8))
            checked += 1
    return worst, checked / total
