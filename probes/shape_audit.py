"""shape_audit: silent broadcasting, loss shape mismatches, bare squeezes, normalisation over the batch."""

from __future__ import annotations

from collections import OrderedDict

import torch
from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import clone_batch, copy_model, finding_at, forward, input_tensors
from ._trace import OpRecorder, ShapeEvent
from .registry import ProbeContext, probe

# Which events mean a defect (status failed) and which outcome tag each emits.
TAGS = {
    "broadcast": "broadcast_expansion",
    "loss_shape": "loss_shape_mismatch",
    "bare_squeeze": "bare_squeeze",
    "norm_over_batch": "norm_over_batch",
    "norm_over_singleton": "softmax_over_one",
    "norm_off_features": "norm_off_features",
    "axis_mix": "reshape_mixes_axes",
    "weights_off_axis": "weights_summed_off_axis",
}


class ShapeAuditOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    include_metric: bool = Field(default=True, description="also audit metric_fn when the target has one")
    max_findings: int = Field(default=20, ge=1, le=200, description="findings kept in the result")


def _describe(ev: ShapeEvent) -> str:
    shapes = " vs ".join(str(tuple(s)) for s in ev.shapes)
    if ev.kind == "broadcast":
        return f"`{ev.op}` broadcast {shapes} to {tuple(ev.out_shape or [])}: both operands were stretched"
    if ev.kind == "loss_shape":
        return f"`{ev.op}` called with input and target shapes {shapes}; it broadcasts instead of failing"
    if ev.kind == "bare_squeeze":
        return f"bare `squeeze()` on {shapes} ({ev.detail})"
    if ev.kind == "axis_mix":
        return (
            f"`{ev.op}` turns {shapes} into {tuple(ev.out_shape or [])}: a new axis takes part of one axis and part "
            f"of another{' ' + ev.detail if ev.detail else ''} (a reshape where a permute/transpose was meant)"
        )
    if ev.kind == "weights_off_axis":
        return (
            f"`{ev.op}` sums softmax weights of shape {shapes} over another axis than they were normalised over "
            f"({ev.detail}): the result is a sum that grows with that axis, not a weighted average"
        )
    if ev.kind == "norm_over_singleton":
        return f"`{ev.op}` over an axis of size 1 of {shapes} ({ev.detail}): every output is the same constant"
    if ev.kind == "norm_off_features":
        return (
            f"`{ev.op}` of a Linear's output {shapes} runs over another axis than its features ({ev.detail}): "
            "each vector is scaled by its neighbours, none has unit length"
        )
    return f"`{ev.op}` normalises over the batch axis of {shapes} ({ev.detail}): rows are coupled"


def _in_library(ev: ShapeEvent) -> bool:
    """An op in forward called by library code (a third-party package, or no frame of the user's code on
    the stack): the library's own arithmetic, not evidence against the user's code."""
    return ev.stage == "forward" and ev.library


def _is_defect(ev: ShapeEvent) -> bool:
    if _in_library(ev):
        return False
    return ev.kind != "bare_squeeze" or "batch axis" in ev.detail


@probe(
    headline=("hazards",),
    outcomes=(
        "shapes_consistent",
        "broadcast_expansion",
        "loss_shape_mismatch",
        "bare_squeeze",
        "norm_over_batch",
        "softmax_over_one",
        "norm_off_features",
        "reshape_mixes_axes",
        "reshape_mixes_row_axes",
        "metric_broadcast",
        "weights_summed_off_axis",
    ),
    cost=1.0,
    options=ShapeAuditOptions,
)
def shape_audit(target: Target, ctx: ProbeContext, options: ShapeAuditOptions) -> ProbeResult:
    """Record every op in forward, loss and metric; flag silent broadcasts, loss/target shape mismatches.

    Runs the model's forward, `loss_fn` and `metric_fn` once on a copy under a torch function mode.
    An elementwise op is flagged when operands of different rank are both stretched, so the result
    is bigger than either ((N,1) against (N,) gives (N,N)); an elementwise loss is flagged when its
    input and target shapes differ; so is a same-rank outer broadcast of the model's output against the
    targets ((B,1) predictions minus (1,B) targets: every prediction meets every target);
    softmax/log_softmax/normalize over the batch axis, a softmax over an axis of size 1 (always 1, its log
    always 0), an L2 normalize of a Linear's (B, T, D) output over an axis
    other than its features, softmax weights that a sum, einsum or matmul contracts over another axis than
    the one they were normalised over (pooling weights over heads summed over tokens), and bare `squeeze()`
    calls are noted, and so is a reshape/view in the user's code whose new axis takes part of one old axis
    and part of another. Each finding names the op, the shapes and the user's source line.
    An op in forward called by a third-party package rather than by the user's code (a library's own
    arithmetic, e.g. relative-position bucketing) is noted as a library finding, never a defect.
    """
    model = copy_model(target)
    inputs, targets = clone_batch(target.batch)
    recorder = OpRecorder(batch_size=target.batch_size, batch_axis=target.input_axes[0])
    stages = ["forward"]
    with torch.no_grad(), recorder:
        out = forward(target, model, inputs)
        recorder.mark(input_tensors(out), "output")
        recorder.mark(input_tensors(targets), "target")
        if target.loss_fn is not None:
            recorder.stage = "loss_fn"
            stages.append(recorder.stage)
            target.loss_fn(out, targets)
        if options.include_metric and target.metric_fn is not None:
            recorder.stage = "metric_fn"
            stages.append(recorder.stage)
            target.metric_fn(out, targets)

    findings, outcomes, defects, library = _read_events(recorder.events)
    if not outcomes:
        outcomes = ["shapes_consistent"]
    status = "failed" if defects else "passed"
    summary = (
        f"{defects} shape hazard(s) in {', '.join(stages)}"
        if defects
        else f"no silent broadcasting in {', '.join(stages)} ({recorder.n_ops} ops checked)"
    )
    if library:
        summary += f"; {library} broadcast(s) inside library code noted, not evidence"
    return ProbeResult(
        name="shape_audit",
        status=status,
        summary=summary,
        outcomes=outcomes,
        findings=findings[: options.max_findings],
        measurements={
            "ops_checked": recorder.n_ops,
            "stages": stages,
            "output_shape": list(out.shape) if isinstance(out, torch.Tensor) else None,
            "target_shape": list(targets.shape) if isinstance(targets, torch.Tensor) else None,
            "hazards": len(findings) - library,
            "library_hazards": library,
        },
    )


def _tag(ev: ShapeEvent) -> str:
    # A hazard inside the metric misreports training; it does not change what the model learns.
    if ev.stage == "metric_fn" and ev.kind != "bare_squeeze":
        return "metric_broadcast"
    if ev.kind == "axis_mix" and ev.detail:
        return "reshape_mixes_row_axes"
    return TAGS[ev.kind]


def _read_events(events: list[ShapeEvent]) -> tuple[list[Finding], list[str], int, int]:
    """Findings, outcome tags, defect count and library-noted count, one per (kind, line, op)."""
    grouped: OrderedDict[tuple[str, str | None, str], tuple[ShapeEvent, int]] = OrderedDict()
    for ev in events:
        where = f"{ev.where[0]}:{ev.where[1]}" if ev.where else None
        key = (ev.kind, where, ev.op)
        first, n = grouped.get(key, (ev, 0))
        grouped[key] = (first, n + 1)

    findings: list[Finding] = []
    outcomes: list[str] = []
    defects = library = 0
    for ev, count in grouped.values():
        if _in_library(ev):
            library += 1
            text = _describe(ev) + " inside library code (called by a package, not by your code); noted, not evidence"
            findings.append(finding_at(text, ev.where, kind=ev.kind, op=ev.op, shapes=ev.shapes, library=True))
            continue
        outcomes.append(_tag(ev))
        defects += _is_defect(ev)
        text = (
            _describe(ev)
            + (f" ({count} times)" if count > 1 else "")
            + (f" in {ev.stage}" if ev.stage != "forward" else "")
        )
        findings.append(finding_at(text, ev.where, kind=ev.kind, op=ev.op, shapes=ev.shapes, out_shape=ev.out_shape))

    return findings, outcomes, defects, library
