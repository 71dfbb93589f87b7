"""script_overfit and script_lr_range: training-level experiments on the user's real loop.

Both need a FRESH run of the user's script with an intervention (declared as `x-intervention` in the
options schema; the script runner re-runs the command in a new child): `repeat_first_batch` makes
the training DataLoader yield its first batch at every step, so a sound loop drives that batch's loss
down; `lr_sweep` multiplies the learning rate of every param group at step k by a factor growing
geometrically from `low` to `high` (on the repeated first batch), so the loss shows where the user's
rate (factor 1) sits between "too small to move" and "diverges". Each is bounded by the run's steps.
On a plain target (no script) they are not applicable.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import Finding, ProbeResult, Target, TrainObservation

from .registry import ProbeContext, probe


class ScriptOverfitOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"x-intervention": "repeat_first_batch"})

    steps: int = Field(default=0, ge=0, le=1000, description="steps of the re-run (0: the run's --steps)")
    drop: float = Field(
        default=0.1, gt=0, lt=1, description="fraction of the first loss that must go to count as fitting"
    )


class ScriptLRRangeOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"x-intervention": "lr_sweep"})

    steps: int = Field(default=0, ge=0, le=1000, description="steps of the re-run (0: the run's --steps)")
    low: float = Field(default=1e-2, gt=0, description="lr multiplier at the first step")
    high: float = Field(default=1e2, gt=0, description="lr multiplier at the last step")


def _observed(target: Target, name: str, kind: str) -> TrainObservation | ProbeResult:
    obs = target.observation
    if not isinstance(obs, TrainObservation) or obs.intervention != kind:
        return ProbeResult(
            name=name,
            status="not_applicable",
            summary=f"needs a fresh run of the training script with {kind} (ask -- python train.py)",
        )
    return obs


def _losses(obs: TrainObservation) -> list[float]:
    return [v if v is not None else float("nan") for v in obs.losses]


@probe(
    outcomes=("fits_batch", "batch_loss_slow", "batch_loss_flat", "batch_loss_diverges"),
    requires=("model", "observation"),
    cost=30.0,
    options=ScriptOverfitOptions,
    headline=("relative_drop",),
    plot="loss_curve",
)
def script_overfit(target: Target, ctx: ProbeContext, options: ScriptOverfitOptions) -> ProbeResult:
    """Re-run your script with the training DataLoader repeating its first batch: does the loss fall?

    A sound loop lowers the loss on a batch it sees again and again; a flat loss means the steps do not
    change what the model computes (frozen or unregistered parameters, a cut graph, no step; judged only
    when the loss holds still, since a loss that wobbles more than it moved cannot tell), a rising
    or non-finite one means the steps are too large (or gradients pile up).
    """
    got = _observed(target, "script_overfit", "repeat_first_batch")
    if isinstance(got, ProbeResult):
        return got
    losses = _losses(got)
    meas = {"losses": [round(v, 6) if math.isfinite(v) else None for v in losses], "steps": len(losses)}
    if len(losses) < 3:
        return ProbeResult(
            name="script_overfit", status="inconclusive", summary="fewer than 3 steps ran", measurements=meas
        )
    meas["curve"] = [[i, v] for i, v in enumerate(meas["losses"]) if v is not None]
    first, tail = losses[0], losses[-2:]
    if not all(math.isfinite(v) for v in losses) or min(tail) > 1.5 * first:
        tag, status, text = "batch_loss_diverges", "failed", "the loss on the repeated batch rose or became non-finite"
    else:
        drop = (first - min(tail)) / abs(first) if first else 0.0
        meas["relative_drop"] = round(drop, 4)
        if drop >= options.drop:
            tag, status, text = "fits_batch", "passed", f"the loss on the repeated batch fell by {drop:.0%}"
        elif drop > 0.01:
            tag, status, text = (
                "batch_loss_slow",
                "inconclusive",
                f"the loss on the repeated batch fell only {drop:.1%}",
            )
        elif max(losses) - min(losses) > 1e-3 * max(abs(first), 1e-6):
            # the loss wobbles (dropout, augmentation) more than it moved: a slow start looks the same as no
            # learning over these few steps, so there is no verdict
            tag, status, text = (
                "batch_loss_slow",
                "inconclusive",
                f"the loss on the repeated batch moved {drop:.2%} net, within its own step-to-step wobble",
            )
        else:
            tag, status, text = "batch_loss_flat", "failed", f"the loss on the repeated batch did not fall ({drop:.2%})"
    where = got.steps[0].where if got.steps else None
    findings = (
        [Finding(text=f"{text} in {len(losses)} steps", where=where.ref if where else None)]
        if status == "failed"
        else []
    )
    return ProbeResult(
        name="script_overfit",
        status=status,
        summary=f"{text} in {len(losses)} steps",
        outcomes=[tag],
        findings=findings,
        measurements=meas,
    )


@probe(
    outcomes=("lr_in_band", "lr_above_band", "lr_below_band", "no_band"),
    requires=("model", "observation"),
    cost=30.0,
    options=ScriptLRRangeOptions,
    headline=("diverge_factor",),
)
def script_lr_range(target: Target, ctx: ProbeContext, options: ScriptLRRangeOptions) -> ProbeResult:
    """Re-run your script with the learning rate scaled up step by step: where does your rate sit?

    The factor grows geometrically from `low` to `high` (your rate is factor 1) on the repeated first
    batch; a loss is credited to the factor of the update before it (step k's loss is read before step
    k's update). Divergence at a factor at or below 1 means your rate is too high; a loss that only starts to
    fall at factors well above 1 means it is too low.
    """
    got = _observed(target, "script_lr_range", "lr_sweep")
    if isinstance(got, ProbeResult):
        return got
    if not got.steps or got.steps[0].kind != "optimizer":
        return ProbeResult(
            name="script_lr_range",
            status="not_applicable",
            summary="the loop updates parameters by hand: no optimizer learning rate to scale",
        )
    losses = _losses(got)
    n = max(len(losses), 2)
    factors = [options.low * (options.high / options.low) ** (k / (n - 1)) for k in range(len(losses))]
    meas = {
        "factors": [float(f"{f:.3g}") for f in factors],
        "losses": [round(v, 6) if math.isfinite(v) else None for v in losses],
    }
    if len(losses) < 4:
        return ProbeResult(
            name="script_lr_range",
            status="inconclusive",
            outcomes=["no_band"],
            summary="fewer than 4 steps ran",
            measurements=meas,
        )
    return _lr_verdict(factors, losses, meas, options)


def _lr_verdict(
    factors: list[float], losses: list[float], meas: dict[str, Any], options: ScriptLRRangeOptions
) -> ProbeResult:
    """Where the rate sits: the factor where the loss first diverges and where it first moves."""
    first = losses[0]
    # The loss of step k is measured before step k's update: it shows the updates up to factor k-1.
    after = list(zip(factors[:-1], losses[1:], strict=True))
    diverge = next((f for f, v in after if not math.isfinite(v) or v > 1.5 * first), None)
    moving = next((f for f, v in after if math.isfinite(v) and v < 0.98 * first), None)
    meas["diverge_factor"] = diverge
    meas["first_moving_factor"] = moving
    if diverge is not None and diverge <= 1.0:
        return ProbeResult(
            name="script_lr_range",
            status="failed",
            outcomes=["lr_above_band"],
            measurements=meas,
            summary=f"the loss diverges already at {diverge:.2g}x your learning rate",
            findings=[Finding(text=f"the loss diverges at {diverge:.2g}x your learning rate")],
        )
    if moving is None or moving > 10.0:
        return ProbeResult(
            name="script_lr_range",
            status="inconclusive" if moving is None else "failed",
            outcomes=["no_band" if moving is None else "lr_below_band"],
            measurements=meas,
            summary="the loss never moved"
            if moving is None
            else f"the loss starts to fall only at {moving:.2g}x your rate",
        )
    return ProbeResult(
        name="script_lr_range",
        status="passed",
        outcomes=["lr_in_band"],
        measurements=meas,
        summary=f"your learning rate sits below divergence ({diverge or options.high:.2g}x); "
        f"the loss moves from {moving:.2g}x",
    )
