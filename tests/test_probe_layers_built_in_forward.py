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
