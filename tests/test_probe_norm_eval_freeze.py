"""`step_audit` and the "freeze batch norm" idiom: a step that trains the model but puts its norm layers in
eval mode fixes their running statistics only; their weight and bias still train unless requires_grad is
off too. That is `norm_eval_weights_train` (layers meant frozen still train), not a forgotten model.train()
(`eval_mode_in_step`), which a step that leaves the whole model in eval mode still gets.

Buggy twin: the norm layers in eval, their affine parameters trainable. Healthy twin: the same with
requires_grad=False on them. Third twin: the whole model left in eval mode. Plain torch models.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from debug_agent.engine import catalog
from debug_agent.schemas import Target

from .test_probes_blindspots import run


def _target(how: str) -> Target:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 4))
    if how == "frozen":
        for p in model[1].parameters():
            p.requires_grad_(False)

    def train_step(model: nn.Module, batch: tuple, optimizer: torch.optim.Optimizer, loss_fn: object) -> torch.Tensor:
        if how == "whole_model_eval":
            model.eval()  # a validation helper's mode, never undone
        else:
            model.train()
            for m in model.modules():
                if isinstance(m, nn.BatchNorm1d):
                    m.eval()  # "freeze BN": running statistics stay as loaded
        x, y = batch
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)  # (B, 4) against (B,)
        loss.backward()
        optimizer.step()
        return loss

    g = torch.Generator().manual_seed(1)
    x = torch.randn(32, 8, generator=g)
    return Target(
        model=model,
        batch=(x, torch.randint(0, 4, (32,), generator=g)),
        loss_fn=F.cross_entropy,
        optimizer=lambda ps: torch.optim.SGD([p for p in ps if p.requires_grad], lr=0.1),
        train_step=train_step,
    )


def test_norm_layers_kept_in_eval_still_train_their_weights():
    buggy = run("step_audit", _target("affine_trains"))
    assert "norm_eval_weights_train" in buggy.outcomes, buggy.summary
    assert "eval_mode_in_step" not in buggy.outcomes
    assert "1.weight" in " ".join(f.text for f in buggy.findings)


def test_norm_layers_frozen_completely_are_by_design():
    healthy = run("step_audit", _target("frozen"))
    assert not {"norm_eval_weights_train", "eval_mode_in_step"} & set(healthy.outcomes), healthy.summary
    assert healthy.status == "passed"


def test_a_step_left_wholly_in_eval_mode_is_still_eval_at_train():
    left = run("step_audit", _target("whole_model_eval"))
    assert "eval_mode_in_step" in left.outcomes and left.status == "failed", left.summary
    assert "norm_eval_weights_train" not in left.outcomes


def test_the_catalog_weighs_the_idiom_for_frozen_params_and_against_eval_at_train():
    cat = catalog.load()
    assert cat.get("optim.frozen_params_train").probes["step_audit"]["norm_eval_weights_train"] > 0
    assert cat.get("mode.eval_at_train").probes["step_audit"]["norm_eval_weights_train"] < 0
