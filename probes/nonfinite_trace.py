"""nonfinite_trace: find the first op that turns finite values into Inf/NaN, in forward, backward or later steps."""

from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field
from torch.overrides import TorchFunctionMode

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import (
    called_from_library,
    clone_batch,
    copy_model,
    finding_at,
    forward,
    input_tensors,
    is_user_file,
    make_optimizer,
    train_step,
    user_frame,
)
from ._data import training_batches
from .registry import ProbeContext, probe

# Weights that grew this many times in norm before the first NaN diverged under the updates: the op that
# overflowed only met the huge values (a step size problem), it did not make them.
_DIVERGED = 100.0
_LOGS = frozenset({"log", "log2", "log10", "log_"})


class NonfiniteOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"x-scale-option": "steps", "x-scale-min": 5})

    steps: int = Field(default=40, ge=0, le=10_000, description="training steps to watch for a later Inf/NaN")


def _tensors(x: Any) -> list[torch.Tensor]:
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (list, tuple)):
        return [t for v in x for t in _tensors(v)]
    if isinstance(x, dict):
        return [t for v in x.values() for t in _tensors(v)]
    return []


def _finite(ts: list[torch.Tensor]) -> bool:
    return all(bool(torch.isfinite(t).all()) for t in ts if t.is_floating_point() or t.is_complex())


def _finite_scalars(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    vals = [v for v in (*args, *kwargs.values()) if isinstance(v, float)]
    return all(math.isfinite(v) for v in vals)


def _range(t: torch.Tensor) -> str:
    t = t.detach()
    if not t.is_floating_point() or t.numel() == 0:
        return f"{tuple(t.shape)}"
    return f"{tuple(t.shape)} in [{float(t.min()):.3g}, {float(t.max()):.3g}]"


@dataclass
class _First(TorchFunctionMode):
    """Remembers the first op whose inputs are all finite but whose output is not."""

    hit: tuple[str, list[str], tuple[str, int, str] | None] | None = None
    in_library: bool = False  # the hit's op was called by a third-party package, not by the user's code
    empty_mean: str = ""  # the hit is a mean over nothing, and why: every label ignore_index, or 0 / 0 in the loss
    in_loss: bool = False  # set while loss_fn runs (a 0 / 0 there is a masked mean that kept no element)
    log_of_zero: bool = False  # the hit is a log of an exact 0 (a probability that underflowed): log space avoids it

    def __post_init__(self) -> None:
        super().__init__()

    def __torch_function__(self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None) -> Any:
        out = func(*args, **(kwargs or {}))
        if self.hit is None:
            outs = _tensors(out)
            if outs and not _finite(outs):
                ins = _tensors(args) + _tensors(kwargs or {})
                # Creation ops and fills with an explicit -inf (attention masks) are deliberate.
                if ins and _finite(ins) and _finite_scalars(args, kwargs or {}):
                    name = getattr(func, "__name__", str(func)).strip("_")
                    self.hit = (name, [_range(t) for t in ins[:3]], user_frame())
                    self.in_library = called_from_library()
                    if _all_ignored(name, args, kwargs or {}):
                        self.empty_mean = "every label is ignore_index"
                    elif self.in_loss and _mean_over_nothing(name, args):
                        self.empty_mean = "a masked mean whose mask kept no element"
                    zeros = any(t.is_floating_point() and bool((t == 0).any()) for t in ins)
                    self.log_of_zero = name in _LOGS and zeros
        return out


def _all_ignored(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """A cross_entropy / nll_loss call whose labels all equal ignore_index (its mean is 0/0)."""
    labels = kwargs.get("target", args[1] if len(args) > 1 else None)
    if name not in {"cross_entropy", "nll_loss"} or not isinstance(labels, torch.Tensor) or labels.is_floating_point():
        return False
    return labels.numel() > 0 and bool((labels == kwargs.get("ignore_index", -100)).all())


def _mean_over_nothing(name: str, args: tuple[Any, ...]) -> bool:
    """0 / 0 with a zero scalar denominator (a masked sum over a mask count of 0), or the mean of no elements."""
    if name == "mean":
        return bool(args) and isinstance(args[0], torch.Tensor) and args[0].numel() == 0
    if name not in {"div", "true_divide", "truediv"} or len(args) < 2:
        return False
    num, den = args[0], args[1]
    den_zero = den == 0 if not isinstance(den, torch.Tensor) else den.numel() == 1 and bool(den == 0)
    num_zero = num == 0 if not isinstance(num, torch.Tensor) else num.numel() > 0 and not bool(num.any())
    return bool(den_zero and num_zero)


def _forward(target: Target, model: torch.nn.Module, batch: Any) -> tuple[torch.Tensor | None, _First, bool]:
    """The loss, the tracer, and whether what leaves forward (the loss, else the output) is all finite."""
    tracer = _First()
    with tracer:
        out = forward(target, model, batch[0])
        tracer.in_loss = True
        loss = target.loss_fn(out, batch[1]) if target.loss_fn is not None else None
    return loss, tracer, _finite(_tensors(loss if loss is not None else out))


def _contained(hit: tuple[str, list[str], tuple[str, int, str] | None], in_library: bool) -> Finding:
    """A non-finite intermediate that never reaches the output or loss (masked or clamped away): a note."""
    op, ranges, frame = hit
    where = "inside library code (called by a package)" if in_library else "in your code"
    text = (
        f"`{op}` turned finite inputs {', '.join(ranges)} into Inf/NaN {where}, but the value was masked or "
        "clamped before the output and loss, which stay finite; noted, not evidence"
    )
    return finding_at(text, frame, contained=True, op=op, library=in_library)


def _backward(loss: torch.Tensor) -> tuple[str, tuple[str, int, str] | None] | None:
    """Backward under anomaly detection; the failing backward function and the forward line behind it."""
    with warnings.catch_warnings(record=True) as caught, torch.autograd.detect_anomaly(check_nan=True):
        warnings.simplefilter("always")
        try:
            loss.backward()
        except RuntimeError as exc:
            m = re.search(r"Function '(\w+)' returned nan", str(exc))
            if not m:
                raise
            return m.group(1), _forward_line("\n".join(str(w.message) for w in caught))
    return None


def _forward_line(text: str) -> tuple[str, int, str] | None:
    """The innermost user frame in the forward traceback that anomaly mode prints."""
    frames = re.findall(r'File "([^"]+)", line (\d+), in \w+\n\s+(.*)', text)
    user = [f for f in frames if is_user_file(f[0])]
    if not user:
        return None
    path, line, code = user[-1]
    return path, int(line), code.strip()


@probe(
    headline=("first_nonfinite_op", "steps_watched"),
    outcomes=(
        "all_finite",
        "nonfinite_input",
        "nonfinite_forward",
        "nonfinite_backward",
        "nonfinite_after_steps",
        "weights_diverged",
        "empty_loss_mean",
        "log_of_zero",
    ),
    cost=45.0,
    options=NonfiniteOptions,
)
def nonfinite_trace(target: Target, ctx: ProbeContext, options: NonfiniteOptions) -> ProbeResult:
    """Locate the first op that produces Inf/NaN from finite inputs, in forward, backward, or after some steps.

    Checks the batch itself, then runs forward and the loss under a torch function mode that stops at
    the first op whose inputs are finite and whose output is not (with the inputs' ranges and your
    source line; when the loss and output stay finite, that value was masked or clamped away, e.g. a
    library's intended log(0), and it is only noted), then backward under anomaly detection, then
    `steps` training steps with your optimizer (and train_step) watching for the loss to become non-finite;
    the steps walk train_data's batches in order when it holds batches. Weights that grew 100-fold in norm
    before the first NaN are `weights_diverged`: the updates blew up, the op only met the huge values. A
    cross-entropy whose labels are all ignore_index, or a 0 / 0 in the loss function (a masked sum divided by a
    mask that kept nothing, a mean of no elements), is `empty_loss_mean`: a mean over no labels. A log
    of an exact 0 is `log_of_zero`: a probability that underflowed, which a log-space form would not produce.
    """
    batch = clone_batch(target.batch)
    inputs = input_tensors(batch[0])
    if not _finite(inputs):
        bad = sum(int((~torch.isfinite(t)).sum()) for t in inputs if t.is_floating_point())
        return ProbeResult(
            name="nonfinite_trace",
            status="failed",
            outcomes=["nonfinite_input"],
            measurements={"nonfinite_input_values": bad},
            summary=f"the batch itself holds {bad} Inf/NaN value(s)",
        )
    model = copy_model(target).train()
    loss, tracer, finite_out = _forward(target, model, batch)
    notes: list[Finding] = []
    meas: dict[str, Any] = {}
    contained_at = None
    if tracer.hit and not finite_out:
        tags = ["empty_loss_mean"] if tracer.empty_mean else ["nonfinite_forward"]
        tags += ["log_of_zero"] if tracer.log_of_zero else []
        return _report(tags, "forward", tracer.hit, {}, tracer.empty_mean)
    if tracer.hit:
        notes.append(_contained(tracer.hit, tracer.in_library))
        meas["contained_nonfinite_op"] = tracer.hit[0]
        contained_at = tracer.hit[0::2]
    if loss is not None and loss.requires_grad:
        back = _backward(loss)
        if back:
            fn, frame = back
            findings = [finding_at(f"backward of `{fn}` returned NaN although forward was finite", frame)]
            return ProbeResult(
                name="nonfinite_trace",
                status="failed",
                outcomes=["nonfinite_backward"],
                findings=findings,
                measurements={"backward_function": fn},
                summary=f"NaN first appears in the backward of {fn}",
            )
    if loss is None or options.steps == 0:
        return ProbeResult(
            name="nonfinite_trace",
            status="passed",
            outcomes=["all_finite"],
            findings=notes,
            measurements=meas,
            summary="forward and backward are finite on the batch",
        )
    return _watch_steps(target, ctx, options.steps, batch, contained_at, notes, meas)


def _watch_steps(
    target: Target,
    ctx: ProbeContext,
    steps: int,
    batch: Any,
    contained_at: Any,
    notes: list[Finding],
    meas: dict[str, Any],
) -> ProbeResult:
    """Train a fresh copy `steps` times; at the first non-finite loss, replay that step's forward to find the op.

    The steps walk train_data's batches in order when it holds batches (as the user's epoch would, so a rate
    that only diverges on varied batches shows), else repeat the one batch.
    """
    model = copy_model(target).train()
    opt = make_optimizer(target, model)
    batches = [clone_batch(b) for b in training_batches(target.batch, target.train_data, steps)] or [batch]
    if len(batches) > 1:
        meas["batches_cycled"] = len(batches)
    start_norm = _norm(model)
    losses = []
    previous: tuple[dict[str, torch.Tensor], Any] | None = None  # the last step's starting weights and batch
    for step in range(steps):
        snapshot = {k: v.clone() for k, v in model.state_dict().items()}
        batch = batches[step % len(batches)]
        value = train_step(target, model, opt, batch)
        losses.append(value)
        if not torch.isfinite(torch.tensor(value)):
            model.load_state_dict(snapshot)
            meas.update(steps_until_nonfinite=step + 1, loss_history=[float(f"{v:.4g}") for v in losses[-8:]])
            if previous is not None and not all(bool(torch.isfinite(v).all()) for v in snapshot.values()):
                # A finite loss and then NaN weights: the last update's gradient was NaN. Replay that step's backward.
                model.load_state_dict(previous[0])
                return _late_backward(target, model, previous[1], step, meas)
            meas["weight_growth"] = float(f"{_norm(model) / max(start_norm, 1e-12):.3g}")
            return _late_nonfinite(target, model, batch, (step + 1, value), contained_at, meas)
        previous = (snapshot, batch)
        if ctx.expired() and len(losses) < steps:
            meas["steps_watched"] = len(losses)
            return ProbeResult(
                name="nonfinite_trace",
                status="inconclusive",
                measurements=meas,
                findings=notes,
                summary=f"ran out of time after {len(losses)} of {steps} training steps (all finite so far); "
                "no verdict",
            )
    meas["steps_watched"] = len(losses)
    return ProbeResult(
        name="nonfinite_trace",
        status="passed",
        outcomes=["all_finite"],
        measurements=meas,
        findings=notes,
        summary=f"forward, backward and {len(losses)} training steps stay finite",
    )


def _late_nonfinite(
    target: Target, model: torch.nn.Module, batch: Any, at: tuple[int, float], contained_at: Any, meas: dict[str, Any]
) -> ProbeResult:
    """The loss turned non-finite at step at[0]: replay that step's forward (weights as they were) to find the op."""
    step, value = at
    _, tracer, _ = _forward(target, model, batch)
    tags = ["nonfinite_after_steps"] + (["weights_diverged"] if meas["weight_growth"] >= _DIVERGED else [])
    tags += ["empty_loss_mean"] if tracer.empty_mean else []
    tags += ["log_of_zero"] if tracer.log_of_zero else []
    if tracer.hit and tracer.hit[0::2] != contained_at:
        return _report(tags, f"step {step}", tracer.hit, meas, tracer.empty_mean)
    return ProbeResult(
        name="nonfinite_trace",
        status="failed",
        outcomes=tags,
        measurements=meas,
        summary=f"the loss became non-finite at training step {step}",
        findings=[Finding(text=f"the loss became {value} at step {step}; the parameters diverged during the update")],
    )


def _late_backward(target: Target, model: torch.nn.Module, batch: Any, step: int, meas: dict[str, Any]) -> ProbeResult:
    """Step `step` had a finite loss but left NaN weights: find the backward function that returned NaN."""
    with torch.autograd.detect_anomaly(check_nan=False):  # records each forward line for the backward trace
        loss, _, finite = _forward(target, model, batch)
    back = _backward(loss) if loss is not None and loss.requires_grad and finite else None
    if back is None:
        text = f"the loss was finite at step {step} but its update left non-finite weights"
        return ProbeResult(
            name="nonfinite_trace", status="failed", outcomes=["nonfinite_after_steps"], measurements=meas,
            findings=[Finding(text=text)], summary=text,
        )  # fmt: skip
    fn, frame = back
    meas["backward_function"] = fn
    text = f"backward of `{fn}` returned NaN at training step {step} although its forward was finite"
    return ProbeResult(
        name="nonfinite_trace",
        status="failed",
        outcomes=["nonfinite_after_steps", "nonfinite_backward"],
        findings=[finding_at(text, frame)],
        measurements=meas,
        summary=f"NaN first appears in the backward of {fn}, at training step {step}",
    )


def _norm(model: torch.nn.Module) -> float:
    """The parameters' total L2 norm (in float64, so weights near the float32 limit do not overflow it)."""
    with torch.no_grad():
        return math.sqrt(sum(float(p.detach().double().pow(2).sum()) for p in model.parameters()))


def _report(
    tag: str | list[str],
    when: str,
    hit: tuple[str, list[str], tuple[str, int, str] | None],
    meas: dict[str, Any],
    empty_why: str = "",
) -> ProbeResult:
    op, ranges, frame = hit
    tags = [tag] if isinstance(tag, str) else tag
    empty = f" because {empty_why} (a mean over no labels, 0/0)" if "empty_loss_mean" in tags else ""
    if empty:
        when = "the loss" if when == "forward" else f"the loss at {when}"
    text = f"`{op}` turned finite inputs {', '.join(ranges)} into Inf/NaN ({when}){empty}"
    meas.update(first_nonfinite_op=op, input_ranges=ranges)
    return ProbeResult(
        name="nonfinite_trace",
        status="failed",
        outcomes=tags,
        measurements=meas,
        findings=[finding_at(text, frame)],
        summary=f"first Inf/NaN from `{op}` in {when}{empty}",
    )
