"""accum_scale: a step that accumulates micro-batch gradients without dividing the loss, next to healthy steps."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run


def _accumulating(divide: bool, k: int = 4):
    def step(model: nn.Module, batch: tuple, optimizer: torch.optim.Optimizer, loss_fn) -> torch.Tensor:
        x, y = batch
        optimizer.zero_grad()
        total = 0.0
        for xs, ys in zip(x.chunk(k), y.chunk(k), strict=True):  # k micro-batches, one step
            loss = loss_fn(model(xs), ys)
            (loss / k if divide else loss).backward()
            total += float(loss)
        nn.utils.clip_grad_norm_(model.parameters(), 0.5)  # clipping after backward must not hide the scale
        optimizer.step()
        return torch.tensor(total / k)

    return step


def _target(step) -> Target:
    torch.manual_seed(0)
    x, y = torch.randn(32, 6), torch.randint(0, 3, (32,))
    # Dropout draws other masks per micro-batch than over the batch: the probe turns it off in its copies.
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.3), nn.Linear(16, 3))
    return Target(model=model, batch=(x, y), loss_fn=F.cross_entropy, train_step=step)


@pytest.mark.parametrize(
    ("divide", "status", "outcome"), [(False, "failed", "accum_unscaled"), (True, "passed", "accum_scaled")]
)
def test_accumulated_gradient_against_the_batch_gradient(divide: bool, status: str, outcome: str) -> None:
    result = run("accum_scale", _target(_accumulating(divide)))
    assert result.status == status and result.outcomes == [outcome], result.summary
    assert result.measurements["backward_calls_per_step"] == 4
    # plain torch: the undivided sum of four micro-batch mean losses is four times the batch mean's gradient
    t = _target(_accumulating(divide))
    x, y = t.batch
    t.model.eval()
    t.model.zero_grad()
    sum(F.cross_entropy(t.model(xs), ys) for xs, ys in zip(x.chunk(4), y.chunk(4), strict=True)).backward()
    summed = t.model[0].weight.grad.clone()
    t.model.zero_grad()
    F.cross_entropy(t.model(x), y).backward()
    assert torch.allclose(summed, 4 * t.model[0].weight.grad, atol=1e-5)


def test_a_step_with_one_backward_is_not_accumulation() -> None:
    def step(model, batch, optimizer, loss_fn):
        optimizer.zero_grad()
        loss = loss_fn(model(batch[0]), batch[1])
        loss.backward()
        optimizer.step()
        return loss

    assert run("accum_scale", _target(step)).status == "not_applicable"


def test_a_step_that_switches_to_training_mode_is_compared_in_training_mode() -> None:
    """The model arrives in eval mode (left there by validation); the step calls model.train(), and batch
    norm then normalises with batch statistics: the reference gradient must too, or the ratio drifts."""
    t = _target(_accumulating(divide=True, k=2))
    model = nn.Sequential(nn.Linear(6, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 3)).eval()

    def step(m: nn.Module, batch: tuple, optimizer: torch.optim.Optimizer, loss_fn) -> torch.Tensor:
        m.train()
        return _accumulating(divide=False, k=2)(m, batch, optimizer, loss_fn)

    x, y = t.batch
    shifted = (5 * x + 20, y)  # far from the fresh running statistics (0, 1) that eval mode would use
    result = run("accum_scale", Target(model=model, batch=shifted, loss_fn=F.cross_entropy, train_step=step))
    assert result.status == "failed" and result.outcomes == ["accum_unscaled"], result.summary
