"""loss_range: does the loss stay finite when the model's outputs grow confident?

Training pushes logits apart: a classifier that is right becomes sure of it. A loss written as
`log(softmax(x))`, `log(1 - softmax(x))` or `log(sigmoid(x))` turns a probability that rounds to 0 into
-inf, and the run that looked fine for thousands of steps turns NaN at the moment the model becomes
confident. The built-in losses (`cross_entropy`, `log_softmax`, `binary_cross_entropy_with_logits`) stay
finite at any scale. This probe does not wait for training to get there: it scales the model's output on
the batch up by 10, 100 and 1000 and evaluates the loss and its gradient there.

May import: schemas, the probe registry and helpers.
"""

from __future__ import annotations

import math
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import Finding, ProbeResult, Target
from debug_agent.schemas.target import flat_tensors

from ._common import clone_batch, copy_model, forward, with_tensors
from .registry import ProbeContext, not_applicable, probe


class LossRangeOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scales: list[float] = Field(default=[10.0, 100.0, 1000.0], description="factors the output is scaled up by")


@probe(
    headline=("first_nonfinite_scale",),
    outcomes=("loss_finite_when_confident", "loss_nonfinite_when_confident"),
    requires=("model", "batch", "loss_fn"),
    cost=1.0,
    options=LossRangeOptions,
)
def loss_range(target: Target, ctx: ProbeContext, options: LossRangeOptions) -> ProbeResult:
    """Scale the model's output up 10x, 100x, 1000x: do the loss and its gradient stay finite?

    One eval-mode forward on a copy; each float output tensor with a class axis that is not already a
    probability is centred over its last axis and scaled (a confident model's logits, not a shifted one's),
    then the loss and its gradient with respect to those tensors are evaluated at each scale. A loss
    finite on the output as it is but Inf/NaN at a larger scale is `loss_nonfinite_when_confident` (a log
    of a probability, a division by one). Classification
    only (integer labels, or 0/1 targets shaped like the output): a regression head's outputs are not
    confidences. Outputs the loss refuses once scaled make the probe not applicable.
    """
    model = copy_model(target).eval()
    inputs, targets = clone_batch(target.batch)
    with torch.no_grad():
        out = forward(target, model, inputs)
    tensors = [t.detach() for t in flat_tensors(out)]
    # Scores to scale: float outputs with a class axis that are not already probabilities.
    scores = [i for i, t in enumerate(tensors) if t.is_floating_point() and t.dim() >= 2 and not _unit(t)]
    if not scores:
        return not_applicable("loss_range", "the output holds no logits or scores (probabilities or integers only)")
    if not _class_targets(targets, tensors[scores[0]]):
        return not_applicable("loss_range", "the targets are not class labels or 0/1 labels of the output's shape")
    if not _finite_at(target, out, tensors, scores, targets, 1.0):
        return ProbeResult(
            name="loss_range", status="inconclusive", summary="the loss is not finite on the output as it is"
        )
    centred = [t - t.mean(dim=-1, keepdim=True) if i in scores else t for i, t in enumerate(tensors)]
    meas: dict[str, float | None] = {"first_nonfinite_scale": None}
    for k in options.scales:
        try:
            finite = _finite_at(target, out, centred, scores, targets, k)
        except (RuntimeError, ValueError, AssertionError) as exc:  # the loss checks its inputs' range
            return not_applicable("loss_range", f"the loss refuses the scaled output ({type(exc).__name__})")
        if not finite:
            meas["first_nonfinite_scale"] = k
            text = (
                f"the loss (or its gradient) becomes Inf/NaN once the outputs are {k:g}x as confident as now: "
                "a log or division of a probability that rounds to 0 or 1 (use log_softmax / *_with_logits)"
            )
            return ProbeResult(
                name="loss_range", status="failed", outcomes=["loss_nonfinite_when_confident"],
                findings=[Finding(text=text)], measurements=meas, summary=text,
            )  # fmt: skip
    return ProbeResult(
        name="loss_range", status="passed", outcomes=["loss_finite_when_confident"], measurements=meas,
        summary=f"the loss and its gradient stay finite with the outputs up to {max(options.scales):g}x as confident",
    )  # fmt: skip


def _unit(t: torch.Tensor) -> bool:
    return bool(t.min() >= 0) and bool(t.max() <= 1)


def _class_targets(targets: object, base: torch.Tensor) -> bool:
    """Classification: integer labels below the class count (ignore_index allowed), or 0/1 targets shaped
    like the output. A regression head's outputs (a mean, a log-variance) are not confidences to scale."""
    t = targets if isinstance(targets, torch.Tensor) else next(iter(flat_tensors(targets)), None)
    if not isinstance(t, torch.Tensor) or t.numel() == 0:
        return False
    if not t.is_floating_point():
        return int(t.max()) < max(base.shape[1], base.shape[-1]) and int(t.min()) >= -100
    return t.shape == base.shape and bool(((t >= 0) & (t <= 1)).all())


def _finite_at(
    target: Target, out: Any, tensors: list[torch.Tensor], scores: list[int], targets: Any, k: float
) -> bool:
    """Are the loss and its gradient finite with the score tensors of the output scaled by `k`?"""
    leaves = [(t * k).clone().requires_grad_(True) if i in scores else t for i, t in enumerate(tensors)]
    loss = target.loss_fn(with_tensors(out, leaves), clone_batch(targets))
    if not isinstance(loss, torch.Tensor):
        return True
    if not math.isfinite(float(loss.detach().float().reshape(-1)[0])):
        return False
    if not loss.requires_grad:
        return True
    wrt = [leaves[i] for i in scores]
    grads = torch.autograd.grad(loss.reshape(-1)[0], wrt, allow_unused=True)
    return all(g is None or bool(torch.isfinite(g).all()) for g in grads)
