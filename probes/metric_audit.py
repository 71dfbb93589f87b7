"""metric_audit: does the metric give the right answer on predictions whose answer is known?"""

from __future__ import annotations

import math
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import as_float, clone_batch, copy_model, forward, main_tensor, with_main_tensor
from .registry import ProbeContext, probe


class MetricAuditOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tol: float = Field(default=1e-6, gt=0, description="tolerance when comparing metric values")


def _perfect(out: torch.Tensor, targets: torch.Tensor) -> torch.Tensor | None:
    """Model output that is exactly right for these targets, in the model's own output layout."""
    if not targets.is_floating_point() and out.dim() == targets.dim() + 1 and out.shape[0] == targets.shape[0]:
        # The class axis: last for (B, T, C) against (B, T) labels, else 1 as in (B, C, ...) against (B, ...).
        axis = out.dim() - 1 if out.dim() > 2 and out.shape[:-1] == targets.shape else 1
        onehot = torch.nn.functional.one_hot(targets.long().clamp_min(0), out.shape[axis]).movedim(-1, axis)
        return onehot.to(out.dtype) * 20 - 10  # confident logits; also right after softmax or argmax
    if out.numel() == targets.numel():
        t = targets.to(out.dtype).reshape(out.shape)
        binary = bool(((t == 0) | (t == 1)).all())
        return (2 * t - 1) * 20 if binary and not targets.is_floating_point() else t
    return None


@probe(
    headline=("metric_on_perfect",),
    outcomes=(
        "metric_ok",
        "metric_impossible",
        "metric_inconsistent",
        "metric_order_dependent",
        "metric_order_invariant",
    ),
    requires=("model", "batch", "metric_fn"),
    cost=1.0,
    options=MetricAuditOptions,
)
def metric_audit(target: Target, ctx: ProbeContext, options: MetricAuditOptions) -> ProbeResult:
    """Feed the metric perfect predictions and the model's own: is the answer possible and consistent?

    Builds output that is exactly right for the batch's targets (confident one-hot logits for class
    labels, the targets themselves for regression). A sound metric scores that at its best value
    (1 or 100 for accuracy-like metrics, 0 for errors); anything else, such as 1/N from a broadcast
    comparison, means the metric is computed wrongly. A value outside the range that the best value
    implies (accuracy above 1, a negative error) is impossible. An accuracy-like metric of class labels then
    scores predictions right on exactly half the rows: far from half its best (0% from a floor-divided
    count) it only moves at the extremes, which is inconsistent too, and so is a constant prediction (every
    row one class) that scores the best value although the labels are mixed (false positives never counted).
    Then the same predictions and targets are shuffled together: an average over examples does not move, so
    a metric that does averages something else (per-batch means over unequal batches, full batches only).
    When no perfect prediction can be built for the output layout (detections, nested outputs), only the
    order test runs: `metric_order_invariant`, inconclusive.
    """
    model = copy_model(target).eval()
    inputs, targets = clone_batch(target.batch)
    with torch.no_grad():
        out = forward(target, model, inputs)
        actual = as_float(target.metric_fn(out, targets))
        y = main_tensor(out)
        ideal = _perfect(y, targets) if isinstance(targets, torch.Tensor) else None
        best = as_float(target.metric_fn(with_main_tensor(out, ideal), targets)) if ideal is not None else None
    meas: dict[str, Any] = {"metric_on_model": actual, "metric_on_perfect": best}
    # A count of correct examples (best = batch size) is a legitimate metric too.
    n = float(len(targets)) if isinstance(targets, torch.Tensor) and targets.dim() else 1.0
    tags, findings = _judge(actual, best, n, options.tol)
    with torch.no_grad():
        half = _half_right(target, out, targets, ideal, best, n, options.tol)
        constant = _constant_scores_best(target, out, targets, ideal, best, n, options.tol)
    meas.update(metric_on_half_right=half, constant_prediction_scoring_best=constant)
    inconsistent = [
        f"the metric scores predictions that are right on exactly half the rows {half:.4g}, not about half of its "
        f"perfect {best:.4g}: it only moves at the extremes (integer division, a threshold, or a comparison of the "
        "whole batch at once)"
        if half is not None
        else "",
        f"the metric scores a constant prediction ({constant}) {best:.4g}, the same as perfect predictions, although "
        "the labels are not all that class: the rows it gets wrong are not counted (false positives or negatives "
        "left out of the score)"
        if constant is not None
        else "",
    ]
    if "metric_ok" in tags and any(inconsistent):
        tags = ["metric_inconsistent"]
        findings += [Finding(text=t) for t in inconsistent if t]
    with torch.no_grad():
        reordered = _reordered(target, out, targets, ctx.seed)
    meas["metric_on_reordered_rows"] = reordered
    # Summing in another order moves a float32 average by ~1e-7 of itself; a mean of chunk means moves by far more.
    moved = reordered is not None and abs(reordered - actual) > max(options.tol, 1e-4) * max(1.0, abs(actual))
    if moved and math.isfinite(actual):
        tags = [t for t in tags if t != "metric_ok"] + ["metric_order_dependent"]
        findings.append(
            Finding(
                text=f"the metric moves from {actual:.4g} to {reordered:.4g} when the same predictions and labels are "
                "only put in another row order: it is not an average over examples (a mean of per-batch means "
                "over unequal batches, or only full batches counted)"
            )
        )
    bad = tags != ["metric_ok"]
    untested = best is None and not bad  # only the row-order test could run: the metric's values were not judged
    if bad:
        summary = findings[0].text
    elif best is not None:
        summary = f"metric is {actual:.4g} on the model and {best:.4g} on perfect predictions"
    else:
        tags = ["metric_order_invariant"]
        summary = (
            f"metric is {actual:.4g}; no perfect prediction could be built for this output layout, so only its "
            "invariance to row order was tested (it holds)"
        )
    return ProbeResult(
        name="metric_audit",
        status="failed" if bad else "inconclusive" if untested else "passed",
        outcomes=sorted(set(tags), key=tags.index),
        findings=findings,
        measurements=meas,
        summary=summary,
    )


def _half_right(
    target: Target, out: Any, targets: Any, ideal: torch.Tensor | None, best: float | None, n: float, tol: float
) -> float | None:
    """For an accuracy-like metric of class labels: its value when the first half of the rows are right and the
    rest confidently wrong, when that is far from half its best value (None: sound, or not an accuracy)."""
    y = main_tensor(out)
    if ideal is None or best is None or targets.is_floating_point() or len(targets) < 4 or ideal.shape != y.shape:
        return None
    if not any(abs(best - v) <= tol * max(1.0, v) for v in (1.0, 100.0, n)):
        return None  # an error metric (best 0) or an unusual scale: no expected midpoint
    onehot = y.dim() == targets.dim() + 1
    if not onehot and not bool(((targets == 0) | (targets == 1)).all()):
        return None  # class ids as a regression target: no "confidently wrong" output to build
    wrong = -ideal  # one-hot logits: the right class at -10, the others at +10; binary: the other side
    k = len(targets) // 2
    mixed = torch.cat([ideal[:k], wrong[k:]])  # (B, ...): rows [0, k) right, rows [k, B) wrong
    value = as_float(target.metric_fn(with_main_tensor(out, mixed), targets))
    expected = best * k / len(targets)
    # Macro averages and per-class scores stray from the share of right rows; a floor or a threshold lands at an end.
    return value if math.isfinite(value) and abs(value - expected) > 0.3 * best else None


def _constant_scores_best(
    target: Target, out: Any, targets: Any, ideal: torch.Tensor | None, best: float | None, n: float, tol: float
) -> str | None:
    """For an accuracy-like metric of class labels: the first constant prediction (every row the same class) that
    scores the metric's best value, when the labels are not all that class (None: no such prediction)."""
    y = main_tensor(out)
    if ideal is None or best is None or ideal.shape != y.shape or len(targets) < 4:
        return None
    if not any(abs(best - v) <= tol * max(1.0, v) for v in (1.0, 100.0, n)):
        return None
    onehot = y.dim() == targets.dim() + 1
    if onehot:
        axis = ideal.dim() - 1 if ideal.dim() > 2 and ideal.shape[:-1] == targets.shape else 1
        classes = range(min(ideal.shape[axis], 10))
    elif bool(((targets == 0) | (targets == 1)).all()):
        classes = range(2)
    else:
        return None
    for k in classes:
        if bool((targets == k).all()):
            continue
        if onehot:
            idx = torch.full_like(targets.long(), k)
            const = torch.nn.functional.one_hot(idx, ideal.shape[axis]).movedim(-1, axis).to(ideal.dtype) * 20 - 10
        else:
            const = torch.full_like(ideal, 20.0 if k else -20.0)  # a confident logit, also > 0.5 after a sigmoid
        value = as_float(target.metric_fn(with_main_tensor(out, const), targets))
        if math.isfinite(value) and abs(value - best) <= tol * max(1.0, abs(best)):
            return f"every row class {k}"
    return None


def _reordered(target: Target, out: Any, targets: Any, seed: int) -> float | None:
    """The metric on the same rows in a shuffled order (output and targets moved together), when it can be built."""
    y = main_tensor(out)
    if not isinstance(targets, torch.Tensor) or targets.dim() == 0 or y.dim() == 0 or len(y) != len(targets):
        return None
    if len(y) < 3:
        return None
    perm = torch.randperm(len(y), generator=torch.Generator().manual_seed(seed))
    return as_float(target.metric_fn(with_main_tensor(out, y[perm]), targets[perm]))


def _judge(actual: float, best: float | None, n: float, tol: float) -> tuple[list[str], list[Finding]]:
    """Is the metric's best value one a metric can have, and is its value on the model in range?"""
    findings: list[Finding] = []
    tags: list[str] = []

    def near(a: float | None, b: float) -> bool:
        return a is not None and math.isfinite(a) and abs(a - b) <= tol * max(1.0, abs(b))

    if best is not None and not any(near(best, v) for v in (0.0, 1.0, 100.0, n)):
        tags.append("metric_inconsistent")
        findings.append(
            Finding(
                text=f"the metric scores perfect predictions {best:.4g}, not 1 (or 100) as an accuracy "
                "nor 0 as an error: it compares the wrong things (broadcast or wrong axis)"
            )
        )
    top = 100.0 if near(best, 100.0) else 1.0 if near(best, 1.0) else None
    if top is not None and not (-tol <= actual <= top + tol):
        tags.append("metric_impossible")
        findings.append(Finding(text=f"the metric is {actual:.4g} on the model's output, outside [0, {top:g}]"))
    if best is not None and near(best, 0.0) and actual < -tol:
        tags.append("metric_impossible")
        findings.append(Finding(text=f"the error metric is negative ({actual:.4g})"))
    if not math.isfinite(actual):
        tags.append("metric_impossible")
        findings.append(Finding(text=f"the metric is {actual} on the model's output"))
    return tags or ["metric_ok"], findings
