"""overfit_one_batch: a loss that never reads its targets (a density model's negative log-likelihood, trained
with dummy zero labels) has no known floor, so a batch it does not memorise says nothing about capacity:
inconclusive. The same small model trained against labels it reads keeps its `capacity_limited` verdict."""

from __future__ import annotations

import math

import pytest
import torch
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run


class Gaussian(nn.Module):
    """The mean of a unit-variance Gaussian over each row, predicted through a 2-unit bottleneck."""

    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 2), nn.Linear(2, 8))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.net(x), x  # (B, 8) means, and the rows they model


def nll(out: tuple[torch.Tensor, torch.Tensor], _labels: torch.Tensor) -> torch.Tensor:
    mu, x = out
    return (0.5 * (x - mu).pow(2) + 0.5 * math.log(2 * math.pi)).sum(1).mean()


def _target(objective: str) -> Target:
    torch.manual_seed(0)
    x = torch.randn(64, 8)
    if objective == "likelihood":
        t = Target(model=Gaussian(), batch=(x, torch.zeros(64)), loss_fn=nll)
    else:
        model = nn.Sequential(nn.Linear(8, 4), nn.ReLU(), nn.Linear(4, 10))
        t = Target(model=model, batch=(x, torch.randint(0, 10, (64,))), loss_fn=nn.functional.cross_entropy)
    t.optimizer = lambda p: torch.optim.Adam(p, lr=1e-2)
    return t


def test_a_likelihood_that_ignores_its_targets_gets_no_capacity_verdict():
    r = run("overfit_one_batch", _target("likelihood"))
    assert r.status == "inconclusive" and r.outcomes == [], r.summary
    assert "does not read the targets" in r.summary


@pytest.mark.parametrize("objective", ["labels"])
def test_a_loss_that_reads_its_labels_keeps_the_capacity_verdict(objective: str):
    r = run("overfit_one_batch", _target(objective))
    assert r.outcomes == ["capacity_limited"], r.summary
