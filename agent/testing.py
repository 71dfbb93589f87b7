"""Assertion helpers for your own test suite, so a bug found once stays fixed.

Each runs one probe in-process on copies of your objects and raises AssertionError carrying the
probe's evidence (summary, findings with your source lines, key measurements).

    from debug_agent.testing import assert_batch_independent

    def test_model_keeps_examples_apart():
        assert_batch_independent(MyModel().eval(), torch.randn(8, 16, 32))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from torch import nn

from debug_agent import probes
from debug_agent.api import make_target
from debug_agent.isolation import probe_registry
from debug_agent.schemas import ProbeResult, Target

__all__ = [
    "assert_batch_independent",
    "assert_causal",
    "assert_gradients_match",
    "assert_no_broadcast",
    "assert_overfits",
]


def _run(name: str, target: Target, **options: Any) -> ProbeResult:
    probe_registry()
    return probes.execute(name, target, probes.ProbeContext(seed=0, budget_s=120), options)


def _fail(result: ProbeResult, headline: str) -> None:
    lines = [f"{headline}: {result.summary}"]
    lines += [f"  - {f.text}" + (f" (at {f.where}: {f.code})" if f.where else "") for f in result.findings]
    keys = [k for k in result.measurements if not isinstance(result.measurements[k], (list, dict))][:8]
    if keys:
        lines.append("  measurements: " + ", ".join(f"{k}={result.measurements[k]}" for k in keys))
    raise AssertionError("\n".join(lines))


def _as_tuple(inputs: Any) -> tuple[Any, ...]:
    return tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)


def assert_batch_independent(model: nn.Module, inputs: Any, *, tol: float = 1e-6) -> ProbeResult:
    """Output row i must not depend on input row j != i (the model is evaluated in eval mode)."""
    result = _run("dependency", make_target(model=model, batch=(_as_tuple(inputs), None)), tol=tol, causal=False)
    if "batch_leak" in result.outcomes:
        _fail(result, "rows of the batch leak into each other")
    return result


def assert_causal(model: nn.Module, inputs: Any, dim: int = 1, *, tol: float = 1e-6) -> ProbeResult:
    """Outputs at position t must not depend on inputs after t along `dim`."""
    target = make_target(model=model, batch=(_as_tuple(inputs), None), causal=True, sequence_dim=dim)
    result = _run("dependency", target, tol=tol)
    if "causal_leak" in result.outcomes:
        _fail(result, "future positions leak into the past")
    return result


class _Fixed(nn.Module):
    """A 'model' that returns a given output, so the shape audit can watch a loss on its own."""

    def __init__(self, output: torch.Tensor) -> None:
        super().__init__()
        self.output = output

    def forward(self, _: torch.Tensor) -> torch.Tensor:
        return self.output


def assert_no_broadcast(loss_fn: Callable[..., Any], output: torch.Tensor, target: Any) -> ProbeResult:
    """loss_fn(output, target) must not silently broadcast mismatched shapes."""
    placeholder = torch.zeros(output.shape[0] if output.dim() else 1, 1)
    result = _run("shape_audit", make_target(model=_Fixed(output), batch=(placeholder, target), loss_fn=loss_fn))
    if {"broadcast_expansion", "loss_shape_mismatch"} & set(result.outcomes):
        _fail(result, "the loss broadcasts mismatched shapes")
    return result


def assert_overfits(
    model: nn.Module,
    batch: tuple[Any, Any],
    loss_fn: Callable[..., Any],
    *,
    steps: int = 200,
    optimizer: Callable[..., Any] | None = None,
    drop: float = 0.9,
) -> ProbeResult:
    """A copy of the model can drive the loss on one batch down by `drop` (90%) within `steps`."""
    target = make_target(model=model, batch=batch, loss_fn=loss_fn, optimizer=optimizer)
    result = _run("overfit_one_batch", target, steps=steps, drop=drop)
    if result.status != "passed":
        _fail(result, "the model cannot overfit a single batch")
    return result


def assert_gradients_match(
    module: nn.Module, inputs: Any, *, loss_fn: Callable[..., Any] | None = None, tol: float = 1e-3
) -> ProbeResult:
    """Backward agrees with finite differences (float64) over every parameter and float input."""
    target = make_target(model=module, batch=(_as_tuple(inputs), None), loss_fn=loss_fn)
    result = _run("grad_check", target, tol=tol)
    if "grads_mismatch" in result.outcomes:
        _fail(result, "backward disagrees with finite differences")
    return result
