"""scale_intervention: standardising the inputs is the experiment that tells raw inputs from a large step."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

import debug_agent.probes as P
from debug_agent.isolation import probe_registry
from debug_agent.schemas import ProbeResult, Target


def run(target: Target) -> ProbeResult:
    probe_registry()
    return P.execute("scale_intervention", target, P.ProbeContext(seed=0, budget_s=60), {})


def _target(scale: float, lr: float, first: nn.Module | None = None) -> Target:
    """A small classifier on 20 features; `scale` multiplies the inputs (raw readings in the hundreds)."""
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    x = torch.randn(32, 20, generator=g)
    y = (x[:, 0] + x[:, 1] > 0).long()
    layers = [first] if first is not None else []
    model = nn.Sequential(*layers, nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 2))
    opt = lambda params: torch.optim.SGD(params, lr=lr, momentum=0.9)  # noqa: E731
    return Target(model=model, batch=(x * scale, y), loss_fn=F.cross_entropy, optimizer=opt)


def test_inputs_in_the_hundreds_blow_up_a_normal_rate_and_standardising_cures_it() -> None:
    result = run(_target(scale=500.0, lr=0.01))
    assert result.status == "failed" and result.outcomes == ["scaling_cures_divergence"], result.summary
    assert result.measurements["raw_max_loss"] == "nan/inf" or result.measurements["raw_max_loss"] > 10


def test_a_rate_too_large_for_any_scale_is_not_blamed_on_the_inputs() -> None:
    result = run(_target(scale=500.0, lr=50.0))
    assert result.status == "failed" and result.outcomes == ["diverges_when_scaled"], result.summary


def test_large_inputs_that_a_first_batch_norm_absorbs_do_not_block_training() -> None:
    result = run(_target(scale=500.0, lr=0.01, first=nn.BatchNorm1d(20)))
    assert result.status == "passed" and result.outcomes == ["scale_not_blocking"], result.summary


def test_standardised_inputs_are_not_applicable_and_the_users_model_is_untouched() -> None:
    target = _target(scale=1.0, lr=0.01)
    assert run(target).status == "not_applicable"
    big = _target(scale=500.0, lr=0.01)
    before = [p.detach().clone() for p in big.model.parameters()]
    run(big)
    assert all(torch.equal(a, p.detach()) for a, p in zip(before, big.model.parameters(), strict=True))
