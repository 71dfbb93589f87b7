"""init_loss on outputs that are enormous before any step, next to a healthy twin of the same depth."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run


class SummedMessages(nn.Module):
    """Eight residual layers that add neighbour sums; `norm` puts a LayerNorm after each (the healthy twin)."""

    def __init__(self, norm: bool) -> None:
        super().__init__()
        self.inp = nn.Linear(16, 32)
        self.layers = nn.ModuleList(nn.Linear(32, 32) for _ in range(8))
        self.norms = nn.ModuleList((nn.LayerNorm(32) if norm else nn.Identity()) for _ in range(8))
        self.out = nn.Linear(32, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.inp(x)  # (N, 32)
        for layer, norm in zip(self.layers, self.norms, strict=True):
            h = norm(h + torch.relu(layer(h)) * 4 + h.sum(0, keepdim=True) / 8)  # every node adds all messages
        return self.out(h)


@pytest.mark.parametrize("norm,huge", [(False, True), (True, False)])
def test_a_loss_enormous_before_any_step_fails_init_loss(norm: bool, huge: bool):
    torch.manual_seed(0)
    batch = (torch.randn(64, 16), torch.randint(0, 3, (64,)))
    t = Target(model=SummedMessages(norm), batch=batch, loss_fn=F.cross_entropy)
    r = run("init_loss", t)
    assert ("init_loss_huge" in r.outcomes) is huge, r.summary
    assert r.status == ("failed" if huge else "passed")
