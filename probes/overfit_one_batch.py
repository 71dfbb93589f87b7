"""overfit_one_batch: can a copy of the model drive the loss on one batch to (nearly) zero?"""

from __future__ import annotations

import math

import torch
from pydantic import BaseModel, ConfigDict, Field
from torch import nn

from debug_agent.schemas import ProbeResult, Target

from ._common import clone_batch, copy_model, make_optimizer, train_step
from .registry import ProbeContext, probe


class OverfitOptions(BaseModel):
    # The planner may shrink `steps` to fit its budget, never below 30.
    model_config = ConfigDict(extra="forbid", json_schema_extra={"x-scale-option": "steps", "x-scale-min": 30})

    steps: int = Field(default=200, ge=1, le=100_000, description="most optimisation steps to take")
    drop: float = Field(default=0.9, gt=0, lt=1, description="fraction of the initial loss that must go")
    zero: float = Field(default=1e-6, ge=0, description="a loss at or below this counts as zero")


def _curve(losses: list[float], points: int = 40) -> list[list[float]]:
    """[step, loss] pairs, thinned to about `points` for the report."""
    every = max(1, len(losses) // points)
    keep = list(range(0, len(losses), every))
    if keep[-1] != len(losses) - 1:
        keep.append(len(losses) - 1)
    return [[i, round(losses[i], 6)] for i in keep]


@probe(
    headline=("relative_drop", "initial_loss"),
    plot="loss_curve",
    outcomes=("converged", "stalled", "diverged"),
    requires=("model", "batch", "loss_fn"),
    cost=200.0,
    options=OverfitOptions,
)
def overfit_one_batch(target: Target, ctx: ProbeContext, options: OverfitOptions) -> ProbeResult:
    """Train a copy on the single batch; a sound model and training step drive the loss down by 90%.

    Uses the target's optimizer (default Adam, lr 1e-3) and its own `train_step` when it has one;
    dropout modules of the copy are set to p=0 (the question is whether the batch can be memorised).
    Passes when the loss falls by `drop` of its initial value or reaches ~0 within `steps`; a loss
    that stalls points at a model that cannot fit (broadcasting to the mean, detached graph,
    parameters not updated, a learning rate far too low); a NaN/Inf or a rising loss is divergence.
    """
    model = copy_model(target).train()
    for m in model.modules():  # memorising one batch is the test: regularisation noise only blurs it
        if isinstance(m, nn.modules.dropout._DropoutNd):
            m.p = 0.0
    opt = make_optimizer(target, model)
    losses, stop = _train(target, model, opt, ctx, options)
    first, last = losses[0], losses[-1]
    finite = [v for v in losses if math.isfinite(v)]
    best = min(finite) if finite else float("nan")
    meas = {
        "initial_loss": round(first, 6) if math.isfinite(first) else str(first),
        "final_loss": round(last, 6) if math.isfinite(last) else str(last),
        "min_loss": round(best, 6) if math.isfinite(best) else None,
        "steps_run": len(losses),
        "relative_drop": round(1 - best / first, 4) if finite and math.isfinite(first) and first > 0 else None,
        "optimizer": type(opt).__name__,
        "lr": opt.param_groups[0].get("lr"),
        "used_train_step": target.train_step is not None,
        "curve": _curve([v if math.isfinite(v) else 1e30 for v in losses]),
    }
    if stop == "nonfinite" or (math.isfinite(first) and last > 10 * max(first, 1e-12) and stop != "target"):
        status, outcomes, summary = "failed", ["diverged"], f"loss diverged ({first:.4g} -> {last:.4g})"
    elif stop == "target":
        status, outcomes, summary = "passed", ["converged"], f"loss fell {first:.4g} -> {last:.4g}"
    elif stop == "time":
        status, outcomes = "inconclusive", []
        summary = f"ran out of time after {len(losses)} of {options.steps} steps before the loss fell far enough"
    elif meas["relative_drop"] is not None:
        status, outcomes = "failed", ["stalled"]
        summary = f"loss only fell {first:.4g} -> {best:.4g} ({meas['relative_drop']:.0%} drop)"
    else:
        status, outcomes, summary = "failed", ["stalled"], "loss did not fall"
    return ProbeResult(
        name="overfit_one_batch",
        status=status,
        outcomes=outcomes,
        measurements=meas,
        summary=f"{summary}; no verdict" if status == "inconclusive" else f"{summary} in {len(losses)} steps",
    )


def _train(
    target: Target, model: nn.Module, opt: torch.optim.Optimizer, ctx: ProbeContext, options: OverfitOptions
) -> tuple[list[float], str]:
    """Step on the one batch until the loss reaches the goal, turns non-finite, or time runs out."""
    batch = clone_batch(target.batch)
    losses: list[float] = []
    for _ in range(options.steps):
        losses.append(train_step(target, model, opt, batch))
        first, last = losses[0], losses[-1]
        if not math.isfinite(last):
            return losses, "nonfinite"
        if last <= options.zero or (first > 0 and last <= (1 - options.drop) * first):
            return losses, "target"
        if ctx.expired():
            return losses, "time"
    return losses, "steps"
