"""loss_range: a loss that takes the log of a probability turns Inf/NaN once the model is confident."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import debug_agent.probes as P
from debug_agent.isolation import probe_registry
from debug_agent.schemas import ProbeResult, Target


def run(target: Target) -> ProbeResult:
    probe_registry()
    return P.execute("loss_range", target, P.ProbeContext(seed=0, budget_s=60), {})


def _target(loss: object, model: nn.Module | None = None, y: torch.Tensor | None = None) -> Target:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    x = torch.randn(16, 8, generator=g)
    y = torch.randint(0, 3, (16,), generator=g) if y is None else y
    return Target(model=model or nn.Linear(8, 3), batch=(x, y), loss_fn=loss)


def _manual_nll(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return -torch.log(F.softmax(out, dim=1)).gather(1, y[:, None]).mean()  # log of a probability


def _one_minus(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.nll_loss(torch.log(1 - F.softmax(out, dim=1)), y)  # the complement's log, as in MDD


@pytest.mark.parametrize("loss", [_manual_nll, _one_minus])
def test_a_log_of_a_probability_fails_once_outputs_are_confident(loss: object) -> None:
    result = run(_target(loss))
    assert result.status == "failed" and result.outcomes == ["loss_nonfinite_when_confident"], result.summary
    assert result.measurements["first_nonfinite_scale"] in (10.0, 100.0, 1000.0)


def test_the_built_in_losses_stay_finite() -> None:
    assert run(_target(F.cross_entropy)).outcomes == ["loss_finite_when_confident"]
    lsm = run(_target(lambda o, y: F.nll_loss(F.log_softmax(o, dim=1), y)))
    assert lsm.status == "passed"


def test_a_second_head_in_a_tuple_output_is_scaled_too() -> None:
    class TwoHeads(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.a, self.b = nn.Linear(8, 3), nn.Linear(8, 3)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            return self.a(x), self.b(x)

    bad = run(_target(lambda o, y: F.cross_entropy(o[0], y) + _one_minus(o[1], y), model=TwoHeads()))
    assert bad.status == "failed", bad.summary
    good = run(_target(lambda o, y: F.cross_entropy(o[0], y) + F.cross_entropy(o[1], y), model=TwoHeads()))
    assert good.status == "passed", good.summary


def test_regression_outputs_are_not_confidences() -> None:
    def gaussian_nll(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        mu, log_var = out[:, 0], out[:, 1]
        return (0.5 * torch.exp(-log_var) * (y - mu) ** 2 + 0.5 * log_var).mean()

    result = run(_target(gaussian_nll, model=nn.Linear(8, 2), y=torch.randn(16) * 3))
    assert result.status == "not_applicable", result.summary
