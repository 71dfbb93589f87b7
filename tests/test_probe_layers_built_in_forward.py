"""Layers built inside forward: the copy's own new layer is not a leak, and a layer rebuilt after the optimizer
was made is a parameter the optimizer never sees (the same layer built in __init__ is the healthy twin)."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run


class RebuiltOnFirstCall(nn.Module):
    """Registers a placeholder Linear, then replaces it on the first forward (after the optimizer exists)."""

    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(2, 1)
        self.built = False

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (B, 2) -> (B,)
        if not self.built:
            self.linear = nn.Linear(2, 1)
            self.built = True
        return self.linear(x).squeeze(-1)


class BuiltInInit(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(2, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear(x).squeeze(-1)


def _target(model: nn.Module) -> Target:
    g = torch.Generator().manual_seed(0)
    return Target(
        model=model, batch=(torch.randn(8, 2, generator=g), torch.randn(8, generator=g)),
        loss_fn=nn.functional.mse_loss, optimizer=lambda p: torch.optim.SGD(p, lr=0.1),
    )  # fmt: skip


@pytest.mark.parametrize(("make", "flagged"), [(RebuiltOnFirstCall, True), (BuiltInInit, False)])
def test_a_layer_built_after_the_optimizer_is_found(make, flagged):
    r = run("step_audit", _target(make()))
    assert r.status != "error", r.summary  # the copy's own new layer is not taken for a leak
    assert ("optimizer_misses_params" in r.outcomes) is flagged, r.summary
    if flagged:  # plain torch: the optimizer holds the placeholder, so the layer in use never moves
        m = make()
        opt = torch.optim.SGD(m.parameters(), lr=0.1)
        x, y = _target(m).batch
        nn.functional.mse_loss(m(x), y).backward()
        w = m.linear.weight.detach().clone()
        opt.step()
        assert torch.equal(w, m.linear.weight)


def test_lazy_layers_get_their_shapes_before_the_probes_run():
    """nn.LazyLinear is materialised in place by one forward, as PyTorch asks before building an optimizer."""
    from debug_agent.isolation.target import describe

    t = _target(nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(1), nn.Flatten(0)))
    info = describe(t)
    assert "lazy_layers" in info.extra and info.n_params == 2 * 4 + 4 + 4 + 1
    r = run("step_audit", t)
    assert r.status == "passed" and "optimizer_misses_params" not in r.outcomes, r.summary


class ConvBuiltEachCall(nn.Module):
    """Constructs its projection inside forward (a local layer): fresh random weights on every call."""

    def __init__(self) -> None:
        super().__init__()
        self.head = nn.Linear(3, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (B, 2) -> (B,)
        h = nn.Linear(2, 3)(x)  # (B, 3), never registered
        return self.head(nn.ReLU()(h)).squeeze(-1)


class ParameterFreeModulesInForward(nn.Module):
    """Builds only parameter-free modules in forward (activations): nothing to train is lost."""

    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(2, 3)
        self.head = nn.Linear(3, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(nn.Tanh()(self.proj(x))).squeeze(-1)


@pytest.mark.parametrize(
    ("make", "flagged"), [(ConvBuiltEachCall, True), (ParameterFreeModulesInForward, False), (BuiltInInit, False)]
)
def test_layers_constructed_in_every_forward_are_found(make, flagged):
    r = run("step_audit", _target(make()))
    assert ("modules_built_in_forward" in r.outcomes) is flagged, r.summary
    assert (r.status == "failed") is flagged and ("params_updated" in r.outcomes) is not flagged, r.summary
    if flagged:  # plain torch: two calls on the same input disagree, and the checkpoint lacks the layer
        m, (x, _) = make(), _target(make()).batch
        assert not torch.equal(m(x), m(x))
        assert set(m.state_dict()) == {"head.weight", "head.bias"}


class ReversalAsModule(nn.Module):
    """A gradient reversal written as an nn.Module with a `backward` method: autograd never calls it."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x

    def backward(self, grad: torch.Tensor) -> torch.Tensor:
        return -grad


class _Reverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205  (autograd.Function's own signature)
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):  # noqa: ANN001, ANN205
        return -grad


class ReversalAsFunction(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _Reverse.apply(x)


class Adversary(nn.Module):
    def __init__(self, reversal: nn.Module) -> None:
        super().__init__()
        self.enc, self.rev, self.cls = nn.Linear(2, 4), reversal, nn.Linear(4, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.cls(self.rev(self.enc(x))).squeeze(-1)


@pytest.mark.parametrize(("reversal", "ignored"), [(ReversalAsModule, True), (ReversalAsFunction, False)])
def test_a_module_backward_that_autograd_never_calls(reversal, ignored):
    target = _target(Adversary(reversal()))
    check = run("grad_check", target)
    assert ("module_backward_ignored" in check.outcomes) is ignored, check.summary
    assert (check.status == "failed") is ignored, check.summary
    audit = run("step_audit", target)
    assert ("module_backward_ignored" in audit.outcomes) is ignored, audit.summary
    # plain torch: the encoder's gradient is the same with and without the "reversal" module
    with_rev, plain = Adversary(reversal()), Adversary(nn.Identity())
    plain.load_state_dict(with_rev.state_dict())
    x, y = target.batch
    for m in (with_rev, plain):
        nn.functional.mse_loss(m(x), y).backward()
    assert torch.equal(with_rev.enc.weight.grad, plain.enc.weight.grad) is ignored


class DropoutAlwaysOn(nn.Module):
    """Random in eval mode for another reason: dropout called with training=True."""

    def __init__(self) -> None:
        super().__init__()
        self.proj, self.head = nn.Linear(2, 8), nn.Linear(8, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(nn.functional.dropout(self.proj(x), 0.5, training=True)).squeeze(-1)


@pytest.mark.parametrize(
    ("make", "outcome"),
    [(ConvBuiltEachCall, "eval_layers_rebuilt"), (DropoutAlwaysOn, "eval_random"), (BuiltInInit, "eval_repeatable")],
)
def test_eval_randomness_tells_rebuilt_layers_from_dropout(make, outcome):
    r = run("eval_randomness", _target(make()))
    assert r.outcomes == [outcome], r.summary
