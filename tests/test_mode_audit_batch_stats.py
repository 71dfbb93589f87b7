"""mode_audit's `eval_batch_stats`: an evaluation that leaves batch norm in training mode normalises each
batch with its own statistics, so a prediction depends on the rest of its batch (a few-shot test episode
scored as one batch reads the other queries). Dropout left on is nondeterminism, not this.

Each case has a buggy twin and a healthy one (the probe rule).
"""

from __future__ import annotations

import torch
from torch import nn

from debug_agent.schemas import Target

from .test_probes_blindspots import run


def _target(norm: nn.Module, calls_eval: bool) -> Target:
    g = torch.Generator().manual_seed(0)
    x, y = torch.randn(40, 8, generator=g), torch.randint(0, 5, (40,), generator=g)
    model = nn.Sequential(nn.Linear(8, 32), norm, nn.ReLU(), nn.Linear(32, 5))

    def evaluate(model: nn.Module, batch: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
        if calls_eval:
            model.eval()
        with torch.no_grad():
            return model(batch[0])  # (B, 5): the whole episode as one batch

    return Target(model=model, batch=(x, y), loss_fn=nn.CrossEntropyLoss(), eval_fn=evaluate)


def test_batch_norm_left_training_at_evaluation_uses_batch_statistics():
    buggy = run("mode_audit", _target(nn.BatchNorm1d(32), calls_eval=False))
    assert {"eval_in_train_mode", "eval_batch_stats"} <= set(buggy.outcomes), buggy.summary
    healthy = run("mode_audit", _target(nn.BatchNorm1d(32), calls_eval=True))
    assert not {"eval_in_train_mode", "eval_batch_stats"} & set(healthy.outcomes), healthy.summary


def test_dropout_left_on_is_not_batch_statistics():
    dropout = run("mode_audit", _target(nn.Dropout(0.3), calls_eval=False))
    assert "eval_in_train_mode" in dropout.outcomes and "eval_batch_stats" not in dropout.outcomes, dropout.summary
