"""metric_audit where no perfect prediction can be built for the output layout (boxes with scores against
fewer target fields): only row order is tested, and that is inconclusive, never a pass of the metric."""

from __future__ import annotations

import torch
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run


def _score_as_label_ap(out: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """A ranking metric over (B, 5) detections [x, y, w, label, score] against (B, 3) truth; reads the label
    column as the score (the bug), so the ranking it measures is not the model's."""
    score = out[:, 3]
    hit = (out[:, :2] - targets[:, :2]).abs().sum(1) < 1.0
    order = score.argsort(descending=True)
    return hit[order].float().cumsum(0).div(torch.arange(1, len(hit) + 1)).mean()


def test_a_layout_without_a_perfect_prediction_is_inconclusive():
    g = torch.Generator().manual_seed(0)
    x, y = torch.randn(16, 4, generator=g), torch.randn(16, 3, generator=g)
    t = Target(model=nn.Linear(4, 5), batch=(x, y), loss_fn=lambda o, t: o[:, :3].sub(t).pow(2).mean(),
               metric_fn=_score_as_label_ap)  # fmt: skip
    r = run("metric_audit", t)
    assert r.status == "inconclusive" and r.outcomes == ["metric_order_invariant"], r.summary


def test_an_accuracy_with_a_perfect_prediction_still_passes():
    g = torch.Generator().manual_seed(0)
    x, y = torch.randn(16, 4, generator=g), torch.randint(0, 3, (16,), generator=g)
    t = Target(model=nn.Linear(4, 3), batch=(x, y), loss_fn=nn.functional.cross_entropy,
               metric_fn=lambda o, t: (o.argmax(1) == t).float().mean())  # fmt: skip
    r = run("metric_audit", t)
    assert r.status == "passed" and r.outcomes == ["metric_ok"], r.summary
