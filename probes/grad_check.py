"""grad_check: do the analytic gradients (backward) agree with numerical ones (finite differences)?"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import clone, clone_batch, main_tensor
from .registry import ProbeContext, probe


class GradCheckOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    directions: int = Field(default=3, ge=1, le=64, description="random directions over all parameters at once")
    eps: float = Field(default=1e-6, gt=0, description="finite-difference step (float64)")
    tol: float = Field(default=1e-3, gt=0, description="relative difference above which gradients disagree")
    warn: float = Field(default=1e-5, gt=0, description="relative difference below which gradients agree")
    localise: int = Field(default=16, ge=0, le=256, description="parameter tensors checked one by one on a mismatch")


def _custom_functions(root: Any) -> list[str]:
    """Names of custom autograd.Functions in the graph behind `root`."""
    seen, names, stack = set(), [], [root]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        cls = getattr(node, "_forward_cls", None)
        if cls is not None and cls.__name__ not in names:
            names.append(cls.__name__)
        stack.extend(n for n, _ in getattr(node, "next_functions", ()))
    return names


def _cast(t: Any, dtype: torch.dtype) -> Any:
    return t.to(dtype) if isinstance(t, torch.Tensor) and t.is_floating_point() else t


class _Problem:
    """The scalar L(theta) in float64 and the tensors theta it is differentiated against."""

    def __init__(self, target: Target, dtype: torch.dtype) -> None:
        self.model = clone(target.model).to(dtype).eval()  # eval: dropout would make L random
        inputs, targets = clone_batch(target.batch)
        self.inputs = tuple(_cast(x, dtype).requires_grad_(x.is_floating_point()) for x in inputs)
        self.targets = _cast(targets, dtype)
        self.loss_fn: Callable[..., torch.Tensor] | None = target.loss_fn
        self.proj: torch.Tensor | None = None
        self.names = [n for n, p in self.model.named_parameters() if p.requires_grad]
        self.names += [f"input[{i}]" for i, x in enumerate(self.inputs) if x.requires_grad]
        self.vars = [p for p in self.model.parameters() if p.requires_grad] + [
            x for x in self.inputs if x.requires_grad
        ]

    def value(self) -> torch.Tensor:
        out = self.model(*self.inputs)
        if self.loss_fn is not None:
            return self.loss_fn(out, self.targets)
        y = main_tensor(out)
        if self.proj is None:
            self.proj = torch.randn(y.shape, dtype=y.dtype).to(y.device)
        return (y * self.proj).sum()

    def directional(
        self, grads: list[torch.Tensor | None], dirs: list[torch.Tensor], eps: float
    ) -> tuple[float, float]:
        """(analytic, numerical) derivative along `dirs` (central differences)."""
        analytic = sum(float((g * d).sum()) for g, d in zip(grads, dirs, strict=True) if g is not None)
        with torch.no_grad():
            for v, d in zip(self.vars, dirs, strict=True):
                v.add_(d, alpha=eps)
            up = float(self.value())
            for v, d in zip(self.vars, dirs, strict=True):
                v.add_(d, alpha=-2 * eps)
            down = float(self.value())
            for v, d in zip(self.vars, dirs, strict=True):
                v.add_(d, alpha=eps)
        return analytic, (up - down) / (2 * eps)


def _rel(a: float, n: float) -> float:
    return abs(a - n) / max(abs(a), abs(n), 1e-10)


@probe(
    headline=("max_rel_diff",),
    outcomes=("grads_match", "grads_approximate", "grads_mismatch", "custom_function_mismatch"),
    cost=10.0,
    options=GradCheckOptions,
)
def grad_check(target: Target, ctx: ProbeContext, options: GradCheckOptions) -> ProbeResult:
    """Compare backward with finite differences in float64 along random directions over every parameter.

    Each direction perturbs all parameters (and float inputs) at once, so a handful of forward passes
    covers 100% of them, custom autograd.Functions included. Agreement below 1e-5 relative passes,
    above 1e-3 fails; on a failure each parameter tensor is checked on its own to localise it, and
    the custom Functions in the graph are named.
    """
    dtype = torch.float64
    try:
        prob = _Problem(target, dtype)
        loss = prob.value()
    except RuntimeError as exc:  # code that hard-wires float32 cannot run in float64
        prob, dtype = _Problem(target, torch.float32), torch.float32
        loss = prob.value()
        options = options.model_copy(update={"eps": 1e-3, "tol": 2e-2, "warn": 1e-3})
        fallback = str(exc).splitlines()[0][:120]
    else:
        fallback = None
    if not prob.vars or not loss.requires_grad:
        return ProbeResult(
            name="grad_check", status="not_applicable", summary="nothing differentiable reaches the output"
        )
    customs = _custom_functions(loss.grad_fn)
    grads = list(torch.autograd.grad(loss, prob.vars, allow_unused=True))
    gen = torch.Generator().manual_seed(ctx.seed)
    worst = 0.0
    pairs = []
    for _ in range(options.directions):
        dirs = [torch.randn(v.shape, generator=gen, dtype=dtype).to(v.device) for v in prob.vars]
        a, n = prob.directional(grads, dirs, options.eps)
        pairs.append([round(a, 10), round(n, 10)])
        worst = max(worst, _rel(a, n))
    meas: dict[str, Any] = {
        "max_rel_diff": float(f"{worst:.3g}"),
        "directions": options.directions,
        "dtype": str(dtype).removeprefix("torch."),
        "tensors_covered": len(prob.vars),
        "fraction_covered": 1.0,
        "analytic_vs_numerical": pairs,
        "custom_functions": customs,
    }
    if fallback:
        meas["float64_failed"] = fallback
    findings: list[Finding] = []
    if worst <= options.tol:
        tag = "grads_match" if worst <= options.warn else "grads_approximate"
        return ProbeResult(
            name="grad_check",
            status="passed" if tag == "grads_match" else "inconclusive",
            outcomes=[tag],
            measurements=meas,
            summary=f"backward agrees with finite differences (max relative difference {worst:.1e})",
        )
    bad = []
    for v, name in list(zip(prob.vars, prob.names, strict=True))[: options.localise]:
        dirs = [
            torch.randn(v.shape, generator=gen, dtype=dtype).to(v.device) if u is v else torch.zeros_like(u)
            for u in prob.vars
        ]
        a, n = prob.directional(grads, dirs, options.eps)
        if _rel(a, n) > options.tol:
            bad.append(name)
    meas["mismatching_tensors"] = bad
    tags = ["grads_mismatch"] + (["custom_function_mismatch"] if customs else [])
    findings.append(
        Finding(
            text=f"backward disagrees with finite differences: max relative difference {worst:.2g}"
            + (f" on {', '.join(bad[:6])}" if bad else "")
        )
    )
    if customs:
        findings.append(Finding(text=f"custom autograd.Function(s) in the graph: {', '.join(customs)}"))
    return ProbeResult(
        name="grad_check",
        status="failed",
        outcomes=tags,
        findings=findings,
        measurements=meas,
        summary=f"analytic and numerical gradients disagree (relative difference {worst:.2g})"
        + (f"; custom Function {customs[0]} in the graph" if customs else ""),
    )
