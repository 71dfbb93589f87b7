"""grad_check: do the analytic gradients (backward) agree with numerical ones (finite differences)?

A disagreement is blamed on a backward only when a hand-written one exists (a custom autograd.Function in
the graph, a gradient hook on a tensor or module). Without one, autograd's own formulas are trusted and a
disagreement is explained instead: kinks (ReLU, max-pool: the error shrinks with the step), low precision
inside forward (a float32/16 cast: the error does not shrink) or a random forward (two evaluations differ).
Such a result is `inconclusive` with the reason, never evidence. Imports torch, pydantic, schemas, helpers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field
from torch.overrides import TorchFunctionMode

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import call_flat, clone_batch, copy_model, display_path, fork_rng, main_tensor, user_frame
from ._handwritten import custom_functions, reversals, standing_hooks
from ._module_calls import ModuleCallWatch
from .registry import ProbeContext, probe

# Ops whose derivative jumps somewhere: finite differences across the jump disagree with backward.
KINKS = frozenset(
    """relu relu_ relu6 leaky_relu leaky_relu_ hardtanh hardtanh_ hardswish hardsigmoid abs clamp clamp_
    clip max_pool1d max_pool2d max_pool3d adaptive_max_pool1d adaptive_max_pool2d max amax min amin maximum
    minimum where sign round floor ceil prelu rrelu threshold l1_loss smooth_l1_loss huber_loss sort topk""".split()
)
LOW = (torch.float32, torch.float16, torch.bfloat16)
STEPS = (1e-2, 1e-3, 1e-4, 1e-5, 1e-7)  # extra finite-difference steps tried after a first mismatch


class GradCheckOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    directions: int = Field(default=3, ge=1, le=64, description="random directions over all parameters at once")
    eps: float = Field(default=1e-6, gt=0, description="finite-difference step (float64)")
    tol: float = Field(default=1e-3, gt=0, description="relative difference above which gradients disagree")
    warn: float = Field(default=1e-5, gt=0, description="relative difference below which gradients agree")
    localise: int = Field(default=16, ge=0, le=256, description="parameter tensors checked one by one on a mismatch")


@dataclass
class _Watch(TorchFunctionMode):
    """What the forward does that matters here: gradient hooks, kinks, low-precision tensors."""

    dtype: torch.dtype
    hooks: list[str] = field(default_factory=list)
    kinks: list[str] = field(default_factory=list)
    low: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # nn.Module classes whose own `backward` autograd skips

    def __post_init__(self) -> None:
        super().__init__()

    def __torch_function__(self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None) -> Any:
        out = func(*args, **(kwargs or {}))
        name = getattr(func, "__name__", "").lstrip("_")
        if name in ("register_hook", "register_post_accumulate_grad_hook"):
            self._note(self.hooks, name)
        elif name in KINKS and name not in self.kinks:
            self.kinks.append(name)
        if isinstance(out, torch.Tensor) and out.dtype in LOW and out.dtype != self.dtype and not self.low:
            self._note(self.low, f"{name} -> {str(out.dtype).removeprefix('torch.')}")
        return out

    def _note(self, into: list[str], what: str) -> None:
        frame = user_frame()
        into.append(f"{what} at {display_path(frame[0])}:{frame[1]}" if frame else what)


def _cast(t: Any, dtype: torch.dtype) -> Any:
    return t.to(dtype) if isinstance(t, torch.Tensor) and t.is_floating_point() else t


class _Problem:
    """The scalar L(theta) in float64 and the tensors theta it is differentiated against.

    Every evaluation starts from the same RNG seed, so a forward that samples (dropout left on
    through a path eval() does not reach) is at least the same function at every point.
    """

    def __init__(self, target: Target, dtype: torch.dtype, seed: int) -> None:
        self.model = copy_model(target).to(dtype).eval()  # eval: dropout would make L random
        self.target = target
        self.seed = seed
        inputs, targets = clone_batch(target.inputs), clone_batch(target.targets)
        self.inputs = tuple(_cast(x, dtype).requires_grad_(x.is_floating_point()) for x in inputs)
        self.targets = _cast(targets, dtype)
        self.loss_fn: Callable[..., torch.Tensor] | None = target.loss_fn
        self.proj: torch.Tensor | None = None
        self.names = [n for n, p in self.model.named_parameters() if p.requires_grad]
        self.names += [f"input[{i}]" for i, x in enumerate(self.inputs) if x.requires_grad]
        self.vars = [p for p in self.model.parameters() if p.requires_grad] + [
            x for x in self.inputs if x.requires_grad
        ]

    def value(self, seed_offset: int = 0) -> torch.Tensor:
        with fork_rng(self.model):
            torch.manual_seed(self.seed + seed_offset)
            out = call_flat(self.target, self.model, self.inputs)
            if self.loss_fn is not None:
                return self.loss_fn(out, self.targets)
        y = main_tensor(out)
        if self.proj is None:
            self.proj = torch.randn(y.shape, dtype=y.dtype, generator=torch.Generator().manual_seed(1)).to(y.device)
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

    def worst(self, grads: list[torch.Tensor | None], dirs: list[list[torch.Tensor]], eps: float) -> float:
        return max(_rel(*self.directional(grads, d, eps)) for d in dirs)


def _compare(
    prob: _Problem, loss: torch.Tensor, dirs: list[list[torch.Tensor]], eps: float
) -> tuple[list[torch.Tensor | None], list[tuple[float, float]], float]:
    """The gradient at the current point, the (analytic, numerical) pairs and the worst mismatch."""
    grads = list(torch.autograd.grad(loss, prob.vars, allow_unused=True))
    pairs = [prob.directional(grads, d, eps) for d in dirs]
    return grads, pairs, max(_rel(a, n) for a, n in pairs)


def _jitter(prob: _Problem, gen: torch.Generator) -> None:
    """Move every parameter by a tenth of its typical size (0.1 for zeros: a restored zero holds ~1e-21)."""
    with torch.no_grad():
        for v in prob.vars:
            step = 0.1 * float(v.abs().mean()) if float(v.abs().mean()) > 1e-6 else 0.1
            v.add_(torch.randn(v.shape, generator=gen, dtype=v.dtype).to(v.device), alpha=step)


def _rel(a: float, n: float) -> float:
    return abs(a - n) / max(abs(a), abs(n), 1e-10)


def _setup(target: Target, seed: int) -> tuple[_Problem, torch.Tensor, _Watch, str | None]:
    """Build the float64 problem (float32 when the code cannot run in float64) and run it once, watched."""
    try:
        prob = _Problem(target, torch.float64, seed)
        with _Watch(torch.float64) as watch, ModuleCallWatch(prob.model) as calls:
            loss = prob.value()
        watch.ignored = calls.ignored_backwards()
        return prob, loss, watch, None
    except RuntimeError as exc:  # code that hard-wires float32 cannot run in float64
        fallback = str(exc).splitlines()[0][:120]
    prob = _Problem(target, torch.float32, seed)
    with _Watch(torch.float32) as watch, ModuleCallWatch(prob.model) as calls:
        loss = prob.value()
    watch.ignored = calls.ignored_backwards()
    return prob, loss, watch, fallback


@probe(
    headline=("max_rel_diff",),
    outcomes=(
        "grads_match",
        "grads_approximate",
        "grads_mismatch",
        "custom_function_mismatch",
        "gradient_reversal",
        "module_backward_ignored",
    ),
    cost=10.0,
    options=GradCheckOptions,
)
def grad_check(target: Target, ctx: ProbeContext, options: GradCheckOptions) -> ProbeResult:
    """Compare backward with finite differences in float64 along random directions over every parameter.

    Each direction perturbs all parameters (and float inputs) at once, so a handful of forward passes
    covers 100% of them. Agreement below 1e-5 relative passes. Above 1e-3 the check is repeated at
    several finite-difference steps: it fails only when a hand-written backward exists (a custom
    autograd.Function, a gradient hook) and no step brings agreement; then each parameter tensor is
    checked on its own to localise it. Without a hand-written backward a disagreement is explained
    (kinks, low precision in forward, a random forward) and the result is inconclusive.
    """
    prob, loss, watch, fallback = _setup(target, ctx.seed)
    dtype = prob.vars[0].dtype if prob.vars else torch.float64
    if fallback:
        options = options.model_copy(update={"eps": 1e-3, "tol": 2e-2, "warn": 1e-3})
    if not prob.vars or not loss.requires_grad:
        return ProbeResult(
            name="grad_check", status="not_applicable", summary="nothing differentiable reaches the output"
        )
    handwritten = [f"custom autograd.Function {c}" for c in custom_functions(loss.grad_fn)]
    handwritten += watch.hooks + standing_hooks(target.model)
    gen = torch.Generator().manual_seed(ctx.seed)
    dirs = [
        [torch.randn(v.shape, generator=gen, dtype=dtype).to(v.device) for v in prob.vars]
        for _ in range(options.directions)
    ]
    grads, pairs, worst = _compare(prob, loss, dirs, options.eps)
    jittered = bool(handwritten) and worst <= options.tol
    if jittered:  # right at the start only? (a velocity initialised to 0 hides a Jacobian taken at the mean)
        _jitter(prob, gen)
        grads, pairs, worst = _compare(prob, prob.value(), dirs, options.eps)
    meas: dict[str, Any] = {
        "max_rel_diff": float(f"{worst:.3g}"),
        "directions": options.directions,
        "dtype": str(dtype).removeprefix("torch."),
        "tensors_covered": len(prob.vars),
        "fraction_covered": 1.0,
        "analytic_vs_numerical": [[round(a, 10), round(n, 10)] for a, n in pairs],
        "custom_functions": [h.removeprefix("custom autograd.Function ") for h in handwritten if "Function" in h],
        "handwritten_backward": handwritten,
        "also_checked_jittered": jittered,
    }
    if fallback:
        meas["float64_failed"] = fallback
    if worst > options.tol:
        by_step = {options.eps: worst} | {s: prob.worst(grads, dirs, s) for s in STEPS if s != options.eps}
        meas["rel_diff_by_step"] = {f"{s:g}": float(f"{e:.3g}") for s, e in sorted(by_step.items())}
        best = min(by_step.values())
        meas["best_rel_diff"] = float(f"{best:.3g}")
        reversed_ = reversals(loss.grad_fn, ctx.seed) if handwritten and best > options.tol else {}
        if reversed_ and set(reversed_) == set(meas["custom_functions"]) and len(handwritten) == len(reversed_):
            return _reversal(reversed_, best, meas)
        if handwritten and best > options.tol:
            return _mismatch(prob, grads, gen, options, worst, handwritten, meas)
        return _explained(prob, watch, best, by_step, options, meas)
    if watch.ignored:
        return _ignored(watch.ignored, worst, meas)
    tag = "grads_match" if worst <= options.warn else "grads_approximate"
    return ProbeResult(
        name="grad_check",
        status="passed" if tag == "grads_match" else "inconclusive",
        outcomes=[tag],
        measurements=meas,
        summary=f"backward agrees with finite differences (max relative difference {worst:.1e})",
    )


def _ignored(ignored: list[str], worst: float, meas: dict[str, Any]) -> ProbeResult:
    """The gradient autograd computes agrees with forward, but the backward the user wrote never runs."""
    meas["ignored_module_backward"] = ignored
    text = (
        f"{', '.join(ignored[:4])} define `backward` on an nn.Module and run in forward, but autograd never calls "
        f"it: the gradient is that of forward (finite differences agree to {worst:.1e}), not the hand-written one"
    )
    return ProbeResult(
        name="grad_check",
        status="failed",
        outcomes=["module_backward_ignored"],
        measurements=meas,
        findings=[Finding(text=text)],
        summary=f"the hand-written backward of {ignored[0]} is never called: autograd differentiates its forward",
    )


def _reversal(reversed_: dict[str, float], best: float, meas: dict[str, Any]) -> ProbeResult:
    """Every hand-written backward is a verified gradient reversal: deliberate, not a wrong formula."""
    meas["gradient_reversals"] = {k: round(v, 6) for k, v in reversed_.items()}
    names = ", ".join(f"{k} (x{v:.3g})" for k, v in reversed_.items())
    text = (
        f"the hand-written backward of {names} multiplies the incoming gradient by a negative constant: a "
        "gradient reversal layer, whose reversed gradient is deliberate (finite differences of the forward "
        "cannot agree with it by design)"
    )
    return ProbeResult(
        name="grad_check",
        status="passed",
        outcomes=["gradient_reversal"],
        measurements=meas,
        findings=[Finding(text=text)],
        summary=f"the only hand-written backward is a gradient reversal ({names}), deliberate by design",
    )


def _explained(
    prob: _Problem,
    watch: _Watch,
    best: float,
    by_step: dict[float, float],
    options: GradCheckOptions,
    meas: dict[str, Any],
) -> ProbeResult:
    """No hand-written backward: autograd is trusted; say why finite differences disagreed."""
    with torch.no_grad():
        stochastic = float(prob.value(0)) != float(prob.value(1))
    reasons = []
    if stochastic:
        reasons.append("the forward pass is random (it changes with the RNG seed, e.g. dropout or sampling)")
    if watch.low:
        reasons.append(f"forward computes in lower precision ({watch.low[0]}) although the copy runs in float64")
    steps = sorted(by_step)
    at = f"the best agreement ({best:.1e}) came at step {min(by_step, key=by_step.__getitem__):g}"
    if watch.kinks:
        reasons.append(f"finite differences cross kinks ({', '.join(watch.kinks[:4])}); {at}")
    elif by_step[steps[0]] > min(by_step.values()):
        # The error grows again as the step shrinks: rounding, not a wrong formula.
        reasons.append(f"the difference grows again at smaller steps (rounding error); {at}")
    elif by_step[steps[0]] < by_step[steps[-1]]:
        reasons.append(f"the difference shrinks with the step (truncation error); {at}")
    if not reasons:
        reasons.append("the disagreement does not shrink at any finite-difference step")
    meas.update(stochastic_forward=stochastic, kinks=watch.kinks, low_precision=watch.low)
    why = "; ".join(reasons)
    if best <= options.warn:
        return ProbeResult(
            name="grad_check",
            status="passed",
            outcomes=["grads_match"],
            measurements=meas,
            summary=f"backward agrees with finite differences at a suitable step (relative difference {best:.1e})",
            findings=[Finding(text=why)],
        )
    return ProbeResult(
        name="grad_check",
        status="inconclusive",
        outcomes=["grads_approximate"] if best <= options.tol else [],
        measurements=meas,
        findings=[Finding(text=f"no hand-written backward in the graph, so autograd's gradient is trusted: {why}")],
        summary=f"finite differences cannot verify backward here (best relative difference {best:.1e}): {why}",
    )


def _mismatch(
    prob: _Problem,
    grads: list[torch.Tensor | None],
    gen: torch.Generator,
    options: GradCheckOptions,
    worst: float,
    handwritten: list[str],
    meas: dict[str, Any],
) -> ProbeResult:
    """A hand-written backward exists and no step brings agreement: localise the disagreement."""
    bad = []
    for v, name in list(zip(prob.vars, prob.names, strict=True))[: options.localise]:
        dirs = [
            torch.randn(v.shape, generator=gen, dtype=v.dtype).to(v.device) if u is v else torch.zeros_like(u)
            for u in prob.vars
        ]
        if _rel(*prob.directional(grads, dirs, options.eps)) > options.tol:
            bad.append(name)
    meas["mismatching_tensors"] = bad
    customs = meas["custom_functions"]
    tags = ["grads_mismatch"] + (["custom_function_mismatch"] if customs else [])
    findings = [
        Finding(
            text=f"backward disagrees with finite differences at every step tried: max relative difference "
            f"{worst:.2g}" + (f" on {', '.join(bad[:6])}" if bad else "")
        ),
        Finding(text=f"hand-written backward in the graph: {', '.join(handwritten[:4])}"),
    ]
    return ProbeResult(
        name="grad_check",
        status="failed",
        outcomes=tags,
        findings=findings,
        measurements=meas,
        summary=f"analytic and numerical gradients disagree (relative difference {worst:.2g}); "
        f"hand-written backward: {handwritten[0]}",
    )
