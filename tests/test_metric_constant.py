"""metric_audit: a constant prediction (every row one class) that scores the metric's best value although the
labels are mixed. An F1 of the positive class that never counts false positives gives 1.0 to "everything is
positive"; a sound F1, an accuracy and a macro accuracy over three classes do not."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run


def _f1(logits: torch.Tensor, labels: torch.Tensor, count_false_positives: bool) -> float:
    pred, truth = logits > 0, labels.bool()
    tp = int((pred & truth).sum())
    fn = int((~pred & truth).sum())
    fp = int((pred & ~truth).sum()) if count_false_positives else 0  # the bug: only positive labels are looked at
    precision, recall = tp / max(tp + fp, 1), tp / max(tp + fn, 1)
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def _binary(metric):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(64, 6, generator=g)
    y = (x[:, 0] > 0.3).float()  # float 0/1 labels, as BCE wants them
    head = nn.Sequential(nn.Linear(6, 1), nn.Flatten(0))
    return Target(model=head, batch=(x, y), loss_fn=nn.functional.binary_cross_entropy_with_logits, metric_fn=metric)


def test_an_f1_without_false_positives_scores_everything_positive_as_perfect():
    r = run("metric_audit", _binary(lambda o, t: _f1(o, t, count_false_positives=False)))
    assert r.status == "failed" and r.outcomes == ["metric_inconsistent"], r.summary
    assert r.measurements["constant_prediction_scoring_best"] == "every row class 1"


@pytest.mark.parametrize("name", ["f1", "accuracy"])
def test_sound_binary_metrics_pass(name: str):
    metric = (lambda o, t: _f1(o, t, True)) if name == "f1" else (lambda o, t: ((o > 0).float() == t).float().mean())
    r = run("metric_audit", _binary(metric))
    assert r.status == "passed" and r.outcomes == ["metric_ok"], r.summary
    assert r.measurements["constant_prediction_scoring_best"] is None


def test_a_sound_multiclass_accuracy_passes():
    g = torch.Generator().manual_seed(1)
    x, y = torch.randn(30, 4, generator=g), torch.arange(30) % 3
    t = Target(model=nn.Linear(4, 3), batch=(x, y), loss_fn=nn.functional.cross_entropy,
               metric_fn=lambda o, t: (o.argmax(1) == t).float().mean())  # fmt: skip
    r = run("metric_audit", t)
    assert r.status == "passed" and r.measurements["constant_prediction_scoring_best"] is None, r.summary
