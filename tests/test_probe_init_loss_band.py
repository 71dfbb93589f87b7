"""init_loss: binary_cross_entropy fed sigmoid(sigmoid(x)) sees only [0.5, 0.731]; one sigmoid spans both sides."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

import debug_agent.probes as P
from debug_agent.isolation import probe_registry
from debug_agent.schemas import ProbeResult, Target


def run(model: nn.Module) -> ProbeResult:
    probe_registry()
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    x = torch.randn(32, 6, generator=g)
    y = (x[:, :1] > 0).float()  # (N, 1) binary targets
    target = Target(model=model, batch=(x, y), loss_fn=F.binary_cross_entropy)
    return P.execute("init_loss", target, P.ProbeContext(seed=0, budget_s=60), {})


def _head(*after: nn.Module) -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1), *after)


def test_a_sigmoid_applied_twice_is_found() -> None:
    result = run(_head(nn.Sigmoid(), nn.Sigmoid()))
    assert "probabilities_into_loss" in result.outcomes, result.summary
    assert "[0.5, 0.731]" in result.findings[0].text


def test_one_sigmoid_passes() -> None:
    result = run(_head(nn.Sigmoid()))
    assert "probabilities_into_loss" not in result.outcomes, result.findings
    assert result.status == "passed"


def _classifier(*after: nn.Module) -> ProbeResult:
    probe_registry()
    torch.manual_seed(0)
    x = torch.randn(64, 6)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 5), *after)
    target = Target(model=model, batch=(x, torch.randint(0, 5, (64,))), loss_fn=nn.CrossEntropyLoss())
    return P.execute("init_loss", target, P.ProbeContext(seed=0, budget_s=60), {})


def test_a_relu_on_the_logits_before_cross_entropy_is_found_and_raw_logits_pass() -> None:
    rectified = _classifier(nn.ReLU())  # BUG: the output layer's scores are clipped at zero
    raw = _classifier()
    assert rectified.status == "failed" and "rectified_logits_into_loss" in rectified.outcomes, rectified.summary
    assert "never negative" in rectified.findings[0].text
    assert raw.status == "passed" and "rectified_logits_into_loss" not in raw.outcomes, raw.summary
