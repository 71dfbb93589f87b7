"""`mode_audit`'s training-mode read-back: a hand-written batch norm that accumulates its statistics over every
batch since it was built (not per batch) keeps nothing in eval mode, yet in training mode the same batch comes
out otherwise after another batch went through. `train_state_carried` is state.cross_batch's evidence.

Buggy twin: the accumulating layer. Healthy twins: torch's BatchNorm1d (batch statistics in training, running
averages written but never read there) and dropout (random, but seeded alike). Plain torch models.
"""

from __future__ import annotations

import torch
from torch import nn

from debug_agent.engine import catalog
from debug_agent.schemas import Target

from .test_probes_blindspots import run


class AccumulatingNorm(nn.Module):
    """Normalises with the mean and variance of every row seen in training so far."""

    def __init__(self, d: int) -> None:
        super().__init__()
        self.register_buffer("total", torch.zeros(d))
        self.register_buffer("total_sq", torch.zeros(d))
        self.count = 0
        self.register_buffer("running_mean", torch.zeros(d))
        self.register_buffer("running_var", torch.ones(d))

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (B, D)
        if self.training:
            self.total += x.detach().sum(0)
            self.total_sq += (x.detach() ** 2).sum(0)
            self.count += x.shape[0]
            mean = self.total / self.count
            var = self.total_sq / self.count - mean**2
            self.running_mean.copy_(mean)
            self.running_var.copy_(var)
        else:
            mean, var = self.running_mean, self.running_var
        return (x - mean) / (var + 1e-5).sqrt()


def _target(norm: nn.Module) -> Target:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 16), norm, nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 1))
    g = torch.Generator().manual_seed(1)
    x = torch.randn(32, 6, generator=g)
    return Target(model=model, batch=(x, x.sum(1, keepdim=True)), loss_fn=nn.MSELoss())


def test_statistics_accumulated_across_training_batches_are_state_carried():
    buggy = run("mode_audit", _target(AccumulatingNorm(16)))
    assert "train_state_carried" in buggy.outcomes and buggy.status == "failed", buggy.summary


def test_torch_batch_norm_and_seeded_dropout_carry_nothing_in_training():
    healthy = run("mode_audit", _target(nn.BatchNorm1d(16)))
    assert "train_state_carried" not in healthy.outcomes and healthy.status == "passed", healthy.summary
    assert "forward_deterministic" in healthy.outcomes


def test_the_catalog_reads_it_as_cross_batch_state():
    cat = catalog.load()
    assert cat.get("state.cross_batch").probes["mode_audit"]["train_state_carried"] > 0
    assert cat.get("none").probes["mode_audit"]["train_state_carried"] < 0
