"""activations: a forward signal that grows through depth at initialisation (unnormalised residual branches that
add up, x + f(x) with gains above 1) is `signal_grows`; the same stack with a normalisation in each block, or
with branches scaled down, is healthy."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run


class Block(nn.Module):
    def __init__(self, norm: bool, scale: float) -> None:
        super().__init__()
        self.norm = nn.GroupNorm(1, 8) if norm else nn.Identity()
        self.a, self.b, self.scale = nn.Conv2d(8, 8, 3, padding=1), nn.Conv2d(8, 8, 3, padding=1), scale
        for conv in (self.a, self.b):
            nn.init.kaiming_normal_(conv.weight, nonlinearity="relu")  # a gain of about sqrt(2) per conv

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (B, 8, H, W)
        return x + self.scale * self.b(torch.relu(self.a(self.norm(x))))


def _target(style: str) -> Target:
    norm, scale = {"plain": (False, 1.0), "normalised": (True, 1.0), "scaled": (False, 0.1)}[style]
    model = nn.Sequential(nn.Conv2d(2, 8, 3, padding=1), *[Block(norm, scale) for _ in range(10)], nn.Conv2d(8, 2, 1))
    g = torch.Generator().manual_seed(0)
    x = torch.randn(4, 2, 12, 12, generator=g)
    return Target(model=model, batch=(x, x * 0.5), loss_fn=nn.functional.l1_loss)


def test_a_growing_residual_stack_is_flagged():
    r = run("activations", _target("plain"))
    assert "signal_grows" in r.outcomes and "healthy_grad_flow" not in r.outcomes, r.summary
    assert r.measurements["depth_signal_growth"] >= 10


@pytest.mark.parametrize("style", ["normalised", "scaled"])
def test_normalised_or_scaled_stacks_do_not_grow(style: str):
    r = run("activations", _target(style))
    assert "signal_grows" not in r.outcomes, (r.summary, r.measurements.get("depth_signal_growth"))
