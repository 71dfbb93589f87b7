"""lr_range: a short learning-rate range test on a copy; where does the user's rate sit in the good band?"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import clone_batch, compute_loss, copy_model, make_optimizer, pretrained_name
from .registry import ProbeContext, probe


class LRRangeOptions(BaseModel):
    # The planner may shrink `steps` to fit its budget, never below 24.
    model_config = ConfigDict(extra="forbid", json_schema_extra={"x-scale-option": "steps", "x-scale-min": 24})

    steps: int = Field(default=60, ge=8, le=2000, description="steps of the sweep (one learning rate each)")
    lr_min: float = Field(default=1e-7, gt=0, description="first learning rate")
    lr_max: float = Field(default=10.0, gt=0, description="last learning rate")
    margin: float = Field(default=10.0, gt=1, description="how far below the band (x) counts as too low")


def _smooth(xs: list[float], beta: float = 0.7) -> list[float]:
    out, avg = [], 0.0
    for i, x in enumerate(xs):
        avg = beta * avg + (1 - beta) * x
        out.append(avg / (1 - beta ** (i + 1)))
    return out


def _at(lrs: list[float], losses: list[float], lr: float) -> float | None:
    """The smoothed loss at `lr`, interpolated in log(lr); None outside the swept range."""
    for i in range(len(lrs) - 1):
        (a, va), (b, vb) = (lrs[i], losses[i]), (lrs[i + 1], losses[i + 1])
        if a <= lr <= b:
            t = math.log(lr / a) / math.log(b / a) if b > a else 0.0
            return va + t * (vb - va)
    return None


def _band(lrs: list[float], losses: list[float]) -> dict[str, Any] | None:
    """The good band read off the curve, or None when the loss never falls by 10%.

    low: where the loss first moves (2% below its start). high: the end of the stretch past the
    minimum where the loss stays within half of its total drop from the minimum, capped at a third
    of the rate where it first doubles (one step per rate; sustained training diverges sooner).
    """
    first = losses[0]
    diverge = next((lr for lr, v in zip(lrs, losses, strict=True) if not math.isfinite(v) or v > 2 * first), None)
    finite = [
        (lr, v) for lr, v in zip(lrs, losses, strict=True) if math.isfinite(v) and (diverge is None or lr < diverge)
    ]
    if len(finite) < 4 or min(v for _, v in finite) > 0.9 * first:
        return None
    i_min = min(range(len(finite)), key=lambda k: finite[k][1])
    best = finite[i_min][1]
    near = best + 0.5 * (first - best)  # "near the best": within half of the drop
    cap = diverge / 3 if diverge is not None else math.inf
    high = min(finite[i_min][0], cap)
    for lr, v in finite[i_min:]:
        if v > near or lr >= cap:
            break
        high = lr
    # Steepest descent per unit of log(lr): reported, and where the fix suggests starting.
    slopes = [
        (finite[i + 1][1] - finite[i - 1][1]) / math.log(finite[i + 1][0] / finite[i - 1][0])
        for i in range(1, len(finite) - 1)
    ]
    steepest = finite[min(range(len(slopes)), key=lambda k: slopes[k]) + 1][0]
    low = next((lr for lr, v in finite if v <= 0.98 * first), steepest / 10)
    return {
        "low": min(low, high),
        "high": high,
        "steepest": steepest,
        "diverge": diverge,
        "best_lr": finite[i_min][0],
        "best_loss": best,
        "near": near,
    }


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
    is read off the smoothed curve: from the rate where the loss first moves (2% below its start) to
    the end of the stretch past the minimum where the loss stays within half of its total drop,
    capped at a third of the rate where the loss first doubles (one step per rate; sustained training
    diverges sooner). A rate above the band is too high; more than `margin` times below it, too low.
    A sweep cut short by the deadline gives no verdict, nor does a loss that falls below minus its start
    (an objective with no floor: a policy-gradient surrogate).
    """
    model = copy_model(target).train()
    opt = make_optimizer(target, model)
    user_lr = float(opt.param_groups[0].get("lr", 0.0))
    # The sweep always spans the user's rate with room on both sides.
    lr_min, lr_max = min(options.lr_min, user_lr / 1e4), max(options.lr_max, user_lr * 30)
    lrs, raw, stopped = _sweep(target, model, opt, (lr_min, lr_max), options.steps, ctx)
    losses = _smooth([v if math.isfinite(v) else float("inf") for v in raw])
    meas: dict[str, Any] = {
        "optimizer": type(opt).__name__,
        "user_lr": user_lr,
        "steps": len(lrs),
        "curve": [
            [float(f"{lr:.3g}"), float(f"{v:.4g}")] for lr, v in zip(lrs, losses, strict=True) if math.isfinite(v)
        ][:: max(1, len(lrs) // 40)],
    }
    if stopped:
        return ProbeResult(
            name="lr_range",
            status="inconclusive",
            measurements=meas,
            summary=f"ran out of time after {len(lrs)} of {options.steps} steps of the sweep; no verdict",
        )
    if floorless := _no_floor(raw, meas):
        return floorless
    band = _band(lrs, losses)
    if band is None:
        return ProbeResult(
            name="lr_range",
            status="inconclusive",
            outcomes=["no_band"],
            measurements=meas,
            summary=f"the loss never fell by 10% at any rate from {lr_min:g} to {lrs[-1]:.3g}",
        )
    result = _verdict(band, user_lr, _at(lrs, losses, user_lr), options, meas)
    start = pretrained_name(target.model)
    if start and "lr_below_band" in result.outcomes:
        meas["pretrained_from"] = start
        return ProbeResult(
            name="lr_range",
            status="inconclusive",
            measurements=meas,
            summary=f"the model starts from pretrained weights ({start}): a fine-tuning rate sits below the "
            f"one-batch band ({band['low']:.2g} to {band['high']:.2g}) by design, so {user_lr:g} gets no verdict",
        )
    return result


def _no_floor(raw: list[float], meas: dict[str, Any]) -> ProbeResult | None:
    """No verdict on a loss that falls far below zero: it has no floor to fit toward (a policy-gradient
    surrogate, a Gaussian likelihood whose variance collapses), so the sweep finds only its fastest fall."""
    finite = [v for v in raw if math.isfinite(v)]
    if not finite or finite[0] <= 0 or min(finite) >= -finite[0]:
        return None
    why = f"the loss fell from {finite[0]:.3g} to {min(finite):.3g}, far below zero: an objective with no floor"
    return ProbeResult(
        name="lr_range", status="inconclusive", measurements=meas, summary=f"{why}, on which a range test reads no band"
    )


def _sweep(
    target: Target, model: Any, opt: Any, span: tuple[float, float], steps: int, ctx: ProbeContext
) -> tuple[list[float], list[float], bool]:
    """One step per rate, exponentially from span[0] to span[1]: the rates, the raw losses, cut short?"""
    lr_min, lr_max = span
    ratio = (lr_max / lr_min) ** (1 / max(steps - 1, 1))
    batch = clone_batch(target.batch)
    lrs: list[float] = []
    raw: list[float] = []
    for k in range(steps):
        if ctx.expired():
            return lrs, raw, True  # a deadline, not the curve, ended the sweep: no verdict from a partial curve
        lr = lr_min * ratio**k
        for g in opt.param_groups:
            g["lr"] = lr
        opt.zero_grad(set_to_none=True)
        loss = compute_loss(target, model, batch)
        value = float(loss.detach())
        lrs.append(lr)
        raw.append(value)
        if not math.isfinite(value) or value > 4 * raw[0]:
            break
        loss.backward()
        opt.step()
    return lrs, raw, False


def _verdict(
    band: dict[str, Any], user_lr: float, at_user: float | None, options: LRRangeOptions, meas: dict[str, Any]
) -> ProbeResult:
    """Where the user's rate sits, judged by the curve itself."""
    low, high, diverge = band["low"], band["high"], band["diverge"]
    meas.update(
        band=[float(f"{low:.3g}"), float(f"{high:.3g}")],
        steepest_lr=float(f"{band['steepest']:.3g}"),
        best_lr=float(f"{band['best_lr']:.3g}"),
        best_loss=float(f"{band['best_loss']:.4g}"),
        diverge_lr=float(f"{diverge:.3g}") if diverge else None,
        loss_at_user_lr=float(f"{at_user:.4g}") if at_user is not None and math.isfinite(at_user) else None,
        lr_ratio=float(f"{user_lr / band['steepest']:.3g}"),
    )
    where = f"good band {low:.2g} to {high:.2g}"
    if user_lr > high:
        seen = (
            f"the loss there is {at_user:.3g} against a best of {band['best_loss']:.3g}"
            if at_user is not None and math.isfinite(at_user) and at_user > band["near"]
            else f"within 3x of where the loss diverges ({diverge:.2g})"
            if diverge
            else "past the band"
        )
        return ProbeResult(
            name="lr_range",
            status="failed",
            outcomes=["lr_above_band"],
            measurements=meas,
            findings=[
                Finding(text=f"your learning rate {user_lr:g} is {user_lr / high:.2g}x above the {where}: {seen}")
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
        summary=f"learning rate {user_lr:g} lies in the {where}"
        if user_lr >= low
        else f"learning rate {user_lr:g} is within {options.margin:g}x below the {where}",
    )
