"""overfit_one_batch against the floor a loss keeps: soft targets pass, a model that cannot move still stalls,
and a floor made by broadcasting is never trusted."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

import debug_agent.probes as P
from debug_agent.isolation import probe_registry
from debug_agent.probes._floor import loss_floor
from debug_agent.schemas import ProbeResult, Target


def run(target: Target) -> ProbeResult:
    probe_registry()
    return P.execute("overfit_one_batch", target, P.ProbeContext(seed=0, budget_s=120), {})


def _soft_batch() -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(32, 20, generator=g)
    y = torch.softmax(torch.randn(32, 10, generator=g), -1)  # (B, 10) distributions: CE floor = their entropy
    return x, y


def _mlp() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 10))


def test_soft_targets_reach_their_floor_and_pass() -> None:
    x, y = _soft_batch()
    entropy = float(-(y * y.log()).sum(-1).mean())
    result = run(Target(model=_mlp(), batch=(x, y), loss_fn=F.cross_entropy))
    assert result.status == "passed" and result.outcomes == ["converged"], result.summary
    assert abs(result.measurements["loss_floor"] - entropy) < 0.05  # the floor is the targets' entropy


def test_soft_targets_on_a_model_that_cannot_learn_still_stall() -> None:
    x, y = _soft_batch()
    model = _mlp()
    for p in model.parameters():
        p.requires_grad_(False)
    model[2].bias.requires_grad_(True)  # only a bias moves: the floor stays far off
    result = run(Target(model=model, batch=(x, y), loss_fn=F.cross_entropy))
    assert result.status == "failed" and result.outcomes == ["stalled"], result.summary


def test_competing_terms_keep_a_floor_too() -> None:
    """Distillation: a KL to the teacher's softened outputs plus a cross-entropy on hard labels pull apart."""
    x, _ = _soft_batch()
    torch.manual_seed(1)
    teacher = nn.Linear(20, 5)
    with torch.no_grad():
        soft = teacher(x)

    def loss(out: torch.Tensor, y: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
        t_logits, hard = y
        kd = F.kl_div(F.log_softmax(out / 2, -1), F.softmax(t_logits / 2, -1), reduction="batchmean") * 4
        return 0.7 * kd + 0.3 * F.cross_entropy(out, hard)

    torch.manual_seed(0)
    student = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5))
    result = run(Target(model=student, batch=(x, (soft, soft.argmax(-1).roll(1))), loss_fn=loss))
    assert result.measurements["loss_floor"] > 0.05
    assert result.status == "passed", result.summary


class Regressor(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(8, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(x)  # (B, 1): against a (B,) target an MSE broadcasts to (B, B)


def test_a_floor_made_by_broadcasting_is_not_trusted() -> None:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(32, 8, generator=g)
    y = x[:, 0] * 3  # (B,)
    target = Target(model=Regressor(), batch=(x, y), loss_fn=F.mse_loss)
    assert loss_floor(target) is None
    result = run(target)
    assert result.status == "failed" and result.outcomes == ["stalled"], result.summary


def test_hard_labels_have_no_floor_to_hide_behind() -> None:
    """Integer labels: a free output drives the loss to about zero, so a stalled model still stalls."""
    x, _ = _soft_batch()
    y = torch.arange(32) % 10
    model = _mlp()
    for p in model.parameters():
        p.requires_grad_(False)
    model[2].bias.requires_grad_(True)
    target = Target(model=model, batch=(x, y), loss_fn=F.cross_entropy)
    assert (loss_floor(target) or 1.0) < 0.05
    assert run(target).outcomes == ["stalled"]
