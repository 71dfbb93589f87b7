"""The Python API and the assertion helpers, each on a buggy and a healthy model."""

from __future__ import annotations

import pytest
import torch

import debug_agent
from debug_agent.errors import TargetError
from debug_agent.testing import (
    assert_batch_independent,
    assert_causal,
    assert_gradients_match,
    assert_no_broadcast,
    assert_overfits,
)

from .models import CausalLM, Regressor, SeqModel, mse


def tokens(batch: int = 8, steps: int = 10) -> torch.Tensor:
    return torch.randint(0, 32, (batch, steps), generator=torch.Generator().manual_seed(0))


def test_assert_batch_independent():
    assert_batch_independent(SeqModel(bug=False), tokens())
    with pytest.raises(AssertionError, match=r"(?s)rows of the batch leak.*input rows 0, 1"):
        assert_batch_independent(SeqModel(bug=True), tokens())


def test_assert_causal():
    t = torch.randint(0, 20, (4, 12), generator=torch.Generator().manual_seed(0))
    assert_causal(CausalLM(bug=False), t, dim=1)
    with pytest.raises(AssertionError, match="future positions leak"):
        assert_causal(CausalLM(bug=True), t, dim=1)


def test_assert_no_broadcast_names_the_line():
    pred, y = torch.randn(8, 1), torch.randn(8)
    assert_no_broadcast(mse, pred.squeeze(-1), y)
    with pytest.raises(AssertionError, match=r"(?s)\(8, 1\) vs \(8,\).*models.py"):
        assert_no_broadcast(mse, pred, y)


def test_assert_overfits():
    x = torch.randn(32, 4, generator=torch.Generator().manual_seed(0))
    opt = lambda p: torch.optim.Adam(p, lr=1e-2)  # noqa: E731
    assert_overfits(Regressor(squeeze=True), (x, x[:, 0]), mse, optimizer=opt)
    with pytest.raises(AssertionError, match="cannot overfit"):
        assert_overfits(Regressor(squeeze=False), (x, x[:, 0]), mse, optimizer=opt)


class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        return 2 * x

    @staticmethod
    def backward(ctx, g):  # noqa: ANN001, ANN205
        return 3 * g  # wrong: should be 2 * g


class Scaler(torch.nn.Module):
    def __init__(self, bad: bool) -> None:
        super().__init__()
        self.bad = bad
        self.lin = torch.nn.Linear(3, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.lin(x)
        return Twice.apply(h) if self.bad else 2 * h


def test_assert_gradients_match():
    x = torch.randn(5, 3)
    assert_gradients_match(Scaler(bad=False), x)
    with pytest.raises(AssertionError, match="Twice"):
        assert_gradients_match(Scaler(bad=True), x)


def test_diagnose_in_process_leaves_the_model_alone():
    x = torch.randn(32, 4, generator=torch.Generator().manual_seed(0))
    model = Regressor(squeeze=False)
    before = {k: v.clone() for k, v in model.state_dict().items()}
    report = debug_agent.diagnose(
        model,
        (x, x[:, 0]),
        mse,
        symptom="predictions are all nearly the same value",
        optimizer=lambda p: torch.optim.Adam(p, lr=1e-2),
    )
    assert report.cause_id == "shape.broadcast"
    assert report.meta["target"] == "in-process"
    assert all(torch.equal(before[k], v) for k, v in model.state_dict().items())
    healthy = debug_agent.diagnose(
        Regressor(squeeze=True),
        (x, x[:, 0]),
        mse,
        symptom="sanity check",
        optimizer=lambda p: torch.optim.Adam(p, lr=1e-2),
    )
    assert healthy.cause_id == "none"


def test_diagnose_rejects_objects_outside_the_protocol():
    with pytest.raises(TargetError, match="nn.Module"):
        debug_agent.diagnose(lambda x: x, (torch.randn(2, 2), None))
