"""lr_range: a short learning-rate range test on a copy; where does the user's rate sit in the good band?"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import clone, clone_batch, compute_loss, make_optimizer
from .registry import ProbeContext, probe


class LRRangeOptions(BaseModel):
    # The planner may shrink `steps` to fit its budget, never below 24.
    model_config = ConfigDict(extra="forbid", json_schema_extra={"x-scale-option": "steps", "x-scale-min": 24})

    steps: int = Field(default=60, ge=8, le=2000, description="steps of the sweep (one learning rate each)")
    lr_min: float = Field(default=1e-7, gt=0, description="first learning rate")
    lr_max: float = Field(default=10.0, gt=0, description="last learning rate")
    margin: float = Field(default=10.0, gt=1, description="how far outside the band (x) counts as too high/low")


def _smooth(xs: list[float], beta: float = 0.7) -> list[float]:
    out, avg = [], 0.0
    for i, x in enumerate(xs):
        avg = beta * avg + (1 - beta) * x
        out.append(avg / (1 - beta ** (i + 1)))
    return out


def _band(lrs: list[float], losses: list[float]) -> tuple[float, float, float, float | None] | None:
    """(low, high, steepest lr, divergence lr) of the good band, or None when the loss never falls."""
    first = losses[0]
    diverge = next((lr for lr, v in zip(lrs, losses, strict=True) if not math.isfinite(v) or v > 2 * first), None)
    finite = [
        (lr, v) for lr, v in zip(lrs, losses, strict=True) if math.isfinite(v) and (diverge is None or lr < diverge)
    ]
    if len(finite) < 4 or min(v for _, v in finite) > 0.9 * first:
        return None
    # Steepest descent per unit of log(lr).
    slopes = [
        (finite[i + 1][1] - finite[i - 1][1]) / math.log(finite[i + 1][0] / finite[i - 1][0])
        for i in range(1, len(finite) - 1)
    ]
    i = min(range(len(slopes)), key=lambda k: slopes[k]) + 1
    steepest = finite[i][0]
    high = steepest if diverge is None else min(steepest, diverge / 3)
    # The low end: where the loss first moves (2% below its start). Below it, training crawls.
    low = next((lr for lr, v in finite if v <= 0.98 * first), steepest / 10)
    return min(low, high), high, steepest, diverge


@probe(
    headline=("lr_ratio",),
    plot="lr_curve",
    outcomes=("lr_in_band", "lr_above_band", "lr_below_band", "no_band"),
    requires=("model", "batch", "loss_fn"),
    cost=60.0,
    options=LRRangeOptions,
)
def lr_range(target: Target, ctx: ProbeContext, options: LRRangeOptions) -> ProbeResult:
    """Sweep the learning rate exponentially on a copy; report the band of good rates and where yours sits.

    Uses the target's optimizer class (its lr overridden at each step) on the single batch. The band
    runs from the rate where the loss first moves (2% below its start) up to the rate where it falls
    fastest, capped at a third of the rate where the loss first doubles. A rate more than `margin`
    times above the band, or above a third of the divergence point, is too high; more than
    `margin` times below it, too low.
    """
    model = clone(target.model).train()
    opt = make_optimizer(target, model)
    user_lr = float(opt.param_groups[0].get("lr", 0.0))
    batch = clone_batch(target.batch)
    # The sweep always spans the user's rate with room on both sides.
    lr_min, lr_max = min(options.lr_min, user_lr / 1e4), max(options.lr_max, user_lr * 30)
    ratio = (lr_max / lr_min) ** (1 / max(options.steps - 1, 1))
    lrs, raw = [], []
    for k in range(options.steps):
        lr = lr_min * ratio**k
        for g in opt.param_groups:
            g["lr"] = lr
        opt.zero_grad(set_to_none=True)
        loss = compute_loss(target, model, batch)
        value = float(loss.detach())
        lrs.append(lr)
        raw.append(value)
        if not math.isfinite(value) or value > 4 * raw[0] or ctx.expired():
            break
        loss.backward()
        opt.step()
    losses = _smooth([v if math.isfinite(v) else float("inf") for v in raw])
    meas: dict[str, Any] = {
        "optimizer": type(opt).__name__,
        "user_lr": user_lr,
        "steps": len(lrs),
        "curve": [
            [float(f"{lr:.3g}"), float(f"{v:.4g}")] for lr, v in zip(lrs, losses, strict=True) if math.isfinite(v)
        ][:: max(1, len(lrs) // 40)],
    }
    band = _band(lrs, losses)
    if band is None:
        return ProbeResult(
            name="lr_range",
            status="inconclusive",
            outcomes=["no_band"],
            measurements=meas,
            summary=f"the loss never fell by 10% at any rate from {lr_min:g} to {lrs[-1]:.3g}",
        )
    low, high, steepest, diverge = band
    meas.update(
        band=[float(f"{low:.3g}"), float(f"{high:.3g}")],
        steepest_lr=float(f"{steepest:.3g}"),
        diverge_lr=float(f"{diverge:.3g}") if diverge else None,
        lr_ratio=float(f"{user_lr / steepest:.3g}"),
    )
    where = f"good band {low:.2g} to {high:.2g}"
    # A sweep spends one step at each rate; sustained training diverges well before the sweep does.
    if user_lr > high * options.margin or (diverge is not None and user_lr >= diverge / 3):
        return ProbeResult(
            name="lr_range",
            status="failed",
            outcomes=["lr_above_band"],
            measurements=meas,
            findings=[
                Finding(
                    text=f"your learning rate {user_lr:g} is {user_lr / high:.0f}x above the {where}"
                    + (f"; the loss diverges from {diverge:.2g}" if diverge else "")
                )
            ],
            summary=f"learning rate {user_lr:g} is above the {where}",
        )
    if user_lr < low / options.margin:
        return ProbeResult(
            name="lr_range",
            status="failed",
            outcomes=["lr_below_band"],
            measurements=meas,
            findings=[
                Finding(text=f"your learning rate {user_lr:g} is {low / max(user_lr, 1e-30):.0f}x below the {where}")
            ],
            summary=f"learning rate {user_lr:g} is below the {where}",
        )
    return ProbeResult(
        name="lr_range",
        status="passed",
        outcomes=["lr_in_band"],
        measurements=meas,
        summary=f"learning rate {user_lr:g} is within {options.margin:g}x of the {where}",
    )
