"""overfit_one_batch: can a copy of the model drive the loss on one batch to (nearly) zero?"""

from __future__ import annotations

import contextlib
import math
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field
from torch import nn

from debug_agent.schemas import ProbeResult, Target

from ._common import clone_batch, copy_model, make_optimizer, train_step
from ._draws import SAMPLING, RandomOps
from ._floor import loss_floor, targets_unread
from .registry import ProbeContext, probe


class OverfitOptions(BaseModel):
    # The planner may shrink `steps` to fit its budget, never below 30.
    model_config = ConfigDict(extra="forbid", json_schema_extra={"x-scale-option": "steps", "x-scale-min": 30})

    steps: int = Field(default=200, ge=1, le=100_000, description="most optimisation steps to take")
    drop: float = Field(default=0.9, gt=0, lt=1, description="fraction of the initial loss that must go")
    zero: float = Field(default=1e-6, ge=0, description="a loss at or below this counts as zero")
    few_rows: int = Field(default=2, ge=1, le=64, description="rows of the retry when the whole batch stalls")
    lower_lr: float = Field(default=0.1, gt=0, lt=1, description="learning-rate factor of the retry after a stall")
    longer: int = Field(default=100, ge=2, le=1000, description="most steps of the longer retry, in units of `steps`")
    longer_work: float = Field(
        default=2e8, ge=0, description="steps x parameters the longer retry may spend (it runs when that allows 5x)"
    )
    sampled_drop: float = Field(
        default=0.1,
        gt=0,
        lt=1,
        description="with a sampled objective (noise drawn in the step), a drop this large is no stall: no verdict",
    )
    still_falling: float = Field(
        default=0.1, gt=0, lt=1, description="a last-quarter fall this large: the steps ran out, not the model"
    )


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
    outcomes=("converged", "stalled", "diverged", "capacity_limited", "lr_stalls", "slow_to_fit"),
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
    A loss still falling steadily when the steps run out (by `still_falling` of itself over the last
    quarter) is inconclusive: a sound model that is merely slow looks the same as a weak one. A stall
    is retried on the batch's first `few_rows` rows: a model that memorises those but not the whole
    batch has a working training step and too little capacity (`capacity_limited`), not a defect, unless the
    whole batch is memorised by a longer retry (up to `longer` times the steps, as far as `longer_work` steps x
    parameters allow; only for models small enough for 5x): then it only needed more steps (`slow_to_fit`).
    A step that samples noise (a VAE's latent, a diffusion step's noise and timestep) makes a loss with a
    floor above zero: a drop of `sampled_drop` or more is then no stall, but no verdict either; so is a loss
    that does not read the targets at all (a flow's likelihood, dummy labels): its floor is unknown. Soft targets
    (a teacher's outputs) or terms that pull apart keep a floor too: the model's output made a free tensor
    and optimised against the loss finds it, and a loss that covered `drop` of the way to it passes.
    A stall under the target's own optimizer is retried with every learning rate `lower_lr` times smaller:
    when that memorises the batch, the step size is what stalls (`lr_stalls`), not the model.
    """
    model = _bare_copy(target)
    opt = make_optimizer(target, model)
    draws = RandomOps()
    losses, stop = _train(target, model, opt, ctx, options, watch=draws)
    sampled = sorted({w for w, _ in draws.calls if w in SAMPLING})
    finite = [v for v in losses if math.isfinite(v)]
    meas = _measure(losses, min(finite) if finite else float("nan"), opt, target)
    status, outcomes, summary = _verdict(target, ctx, options, losses, stop, sampled, meas)
    return ProbeResult(
        name="overfit_one_batch",
        status=status,
        outcomes=outcomes,
        measurements=meas,
        summary=f"{summary}; no verdict" if status == "inconclusive" else f"{summary} in {len(losses)} steps",
    )


def _verdict(
    target: Target,
    ctx: ProbeContext,
    options: OverfitOptions,
    losses: list[float],
    stop: str,
    sampled: list[str],
    meas: dict[str, Any],
) -> tuple[str, list[str], str]:
    """(status, outcomes, summary) of a run on the one batch, with the retries a stall calls for."""
    first, last = losses[0], losses[-1]
    best = min((v for v in losses if math.isfinite(v)), default=float("nan"))
    if stop == "nonfinite" or (math.isfinite(first) and last > 10 * max(first, 1e-12) and stop != "target"):
        status, outcomes, summary = "failed", ["diverged"], f"loss diverged ({first:.4g} -> {last:.4g})"
    elif stop == "target":
        status, outcomes, summary = "passed", ["converged"], f"loss fell {first:.4g} -> {last:.4g}"
    elif stop == "time":
        status, outcomes = "inconclusive", []
        summary = f"ran out of time after {len(losses)} of {options.steps} steps before the loss fell far enough"
    elif _still_falling(losses, options.still_falling):
        status, outcomes = "inconclusive", []
        summary = f"loss still falling when the {len(losses)} steps ran out ({first:.4g} -> {best:.4g})"
    elif sampled and (meas["relative_drop"] or 0) >= options.sampled_drop:
        status, outcomes = "inconclusive", []
        summary = (
            f"loss fell {first:.4g} -> {best:.4g} ({meas['relative_drop']:.0%}), short of {options.drop:.0%}, but each "
            f"step samples noise ({', '.join(sampled)}): a sampled objective keeps a floor above zero"
        )
    elif meas["relative_drop"] is not None and _fits_lower_lr(target, ctx, options, meas):
        status, outcomes = "failed", ["lr_stalls"]
        summary = (
            f"loss only fell {first:.4g} -> {best:.4g} ({meas['relative_drop']:.0%} drop) at the optimizer's learning "
            f"rate, but memorised the batch with it {1 / options.lower_lr:g}x smaller: the steps overshoot"
        )
    elif (meas["relative_drop"] or 0) >= options.sampled_drop and targets_unread(target):
        status, outcomes = "inconclusive", []
        summary = (
            f"loss fell {first:.4g} -> {best:.4g} ({meas['relative_drop']:.0%}); the loss does not read the targets "
            "(a likelihood or self-supervised objective), so no floor is known to memorise the batch down to"
        )
    elif meas["relative_drop"] is not None and _fits_few_rows(target, ctx, options, meas) and _fits_longer(
        target, ctx, options, meas
    ):
        status, outcomes = "passed", ["slow_to_fit"]
        summary = (
            f"loss only fell {first:.4g} -> {best:.4g}, but a longer retry memorised the same batch in "
            f"{meas['longer_steps']} steps: the model fits it, it needs more steps; the first run took"
        )
    elif meas["relative_drop"] is not None and "few_rows_drop" in meas and meas.get("few_rows_fit"):
        status, outcomes = "passed", ["capacity_limited"]
        summary = (
            f"loss only fell {first:.4g} -> {best:.4g} on the whole batch but by {meas['few_rows_drop']:.0%} on its "
            f"first {options.few_rows} rows: the training step works, the model cannot memorise the whole batch"
        )
    elif meas["relative_drop"] is not None and _near_floor(target, meas, options):
        status, outcomes = "passed", ["converged"]
        summary = (
            f"loss fell {first:.4g} -> {best:.4g}, within {1 - options.drop:.0%} of the floor this loss has on the "
            f"batch ({meas['loss_floor']:.4g}, the lowest a free output reaches: soft targets or competing terms)"
        )
    elif meas["relative_drop"] is not None:
        status, outcomes = "failed", ["stalled"]
        summary = f"loss only fell {first:.4g} -> {best:.4g} ({meas['relative_drop']:.0%} drop)"
    else:
        status, outcomes, summary = "failed", ["stalled"], "loss did not fall"
    return status, outcomes, summary


def _measure(losses: list[float], best: float, opt: torch.optim.Optimizer, target: Target) -> dict[str, Any]:
    first, last = losses[0], losses[-1]
    measurable = math.isfinite(best) and math.isfinite(first) and first > 0
    return {
        "initial_loss": round(first, 6) if math.isfinite(first) else str(first),
        "final_loss": round(last, 6) if math.isfinite(last) else str(last),
        "min_loss": round(best, 6) if math.isfinite(best) else None,
        "steps_run": len(losses),
        "relative_drop": round(1 - best / first, 4) if measurable else None,
        "optimizer": type(opt).__name__,
        "lr": opt.param_groups[0].get("lr"),
        "used_train_step": target.train_step is not None,
        "curve": _curve([v if math.isfinite(v) else 1e30 for v in losses]),
    }


def _bare_copy(target: Target) -> nn.Module:
    """A training-mode copy with dropout off: memorising is the test, regularisation noise only blurs it."""
    model = copy_model(target).train()
    for m in model.modules():
        if isinstance(m, nn.modules.dropout._DropoutNd):
            m.p = 0.0
    return model


def _first_rows(x: Any, rows: int, keep: int) -> Any:
    """The batch structure with every tensor of `rows` rows cut to its first `keep` (others as they are)."""
    if isinstance(x, torch.Tensor):
        return x[:keep].clone() if x.dim() and x.shape[0] == rows else x.clone()
    if isinstance(x, (tuple, list)) and not hasattr(x, "_fields"):
        return type(x)(_first_rows(v, rows, keep) for v in x)
    if type(x) is dict:
        return {k: _first_rows(v, rows, keep) for k, v in x.items()}
    return x


def _fits_few_rows(target: Target, ctx: ProbeContext, options: OverfitOptions, meas: dict[str, Any]) -> bool:
    """Retry on the first few rows with a fresh copy: does the loss there fall by `drop` (or reach ~0)?"""
    if any(a != 0 for a in target.input_axes) or not target.has_batch_axis:
        return False  # batch axis elsewhere (sequence-first) or none (a graph): cutting axis 0 would not cut rows
    rows = target.batch_size
    if rows <= options.few_rows or ctx.expired():
        return False
    small = _first_rows(clone_batch(target.batch), rows, options.few_rows)
    model = _bare_copy(target)
    try:
        losses, stop = _train(target, model, make_optimizer(target, model), ctx, options, small)
    except (RuntimeError, ValueError, IndexError):  # the model insists on its batch size: no retry, keep the stall
        return False
    meas["few_rows_drop"] = round(1 - min(losses) / losses[0], 4) if losses[0] > 0 else None
    meas["few_rows_fit"] = stop == "target" and meas["few_rows_drop"] is not None  # a loss at or below 0: no drop
    return bool(meas["few_rows_fit"])


def _fits_longer(target: Target, ctx: ProbeContext, options: OverfitOptions, meas: dict[str, Any]) -> bool:
    """For a small model that fits a few rows but not the batch: does the batch fit with `longer` times the
    steps? Then the model only needed more steps, which a capacity limit cannot claim."""
    steps = min(options.steps * options.longer, int(options.longer_work / max(1, _n_params(target))))
    if steps < 5 * options.steps or ctx.expired():
        return False  # a model too large for a long retry in the probe's budget
    model = _bare_copy(target)
    longer = options.model_copy(update={"steps": steps})
    losses, stop = _train(target, model, make_optimizer(target, model), ctx, longer)
    if stop != "target":
        return False
    meas["longer_steps"] = len(losses)
    return True


def _n_params(target: Target) -> int:
    return sum(p.numel() for p in target.model.parameters())


def _fits_lower_lr(target: Target, ctx: ProbeContext, options: OverfitOptions, meas: dict[str, Any]) -> bool:
    """Retry a stall with a fresh copy and the target's optimizer at `lower_lr` of its learning rates."""
    if target.optimizer is None or ctx.expired():
        return False  # our default Adam at 1e-3 is not the user's choice
    model = _bare_copy(target)
    opt = make_optimizer(target, model)
    for group in opt.param_groups:
        if not isinstance(group.get("lr"), (int, float)) or group["lr"] <= 0:
            return False
        group["lr"] = group["lr"] * options.lower_lr
    losses, stop = _train(target, model, opt, ctx, options)
    meas["lower_lr_drop"] = round(1 - min(losses) / losses[0], 4) if losses[0] > 0 else None
    return stop == "target"


def _near_floor(target: Target, meas: dict[str, Any], options: OverfitOptions) -> bool:
    """Did the loss cover `drop` of the way from its start to the floor the loss itself keeps (see _floor)?"""
    floor = loss_floor(target)
    meas["loss_floor"] = round(floor, 6) if floor is not None else None
    first, best = meas["initial_loss"], meas["min_loss"]
    if floor is None or not isinstance(first, float) or best is None or first - floor <= 0:
        return False
    return floor > options.zero and first - best >= options.drop * (first - floor)


def _still_falling(losses: list[float], fraction: float) -> bool:
    """Did the best loss of the last quarter fall by `fraction` below the best before it?"""
    cut = len(losses) * 3 // 4
    before = [v for v in losses[:cut] if math.isfinite(v)]
    after = [v for v in losses[cut:] if math.isfinite(v)]
    if len(losses) < 8 or not before or not after or min(before) <= 0:
        return False
    return min(after) <= (1 - fraction) * min(before)


def _train(
    target: Target,
    model: nn.Module,
    opt: torch.optim.Optimizer,
    ctx: ProbeContext,
    options: OverfitOptions,
    batch: Any = None,
    watch: RandomOps | None = None,
) -> tuple[list[float], str]:
    """Step on the one batch until the loss reaches the goal, turns non-finite, or time runs out
    (`watch` records the random draws of the first step)."""
    batch = clone_batch(target.batch) if batch is None else batch
    losses: list[float] = []
    for i in range(options.steps):
        with watch if watch is not None and i == 0 else contextlib.nullcontext():
            losses.append(train_step(target, model, opt, batch))
        first, last = losses[0], losses[-1]
        if not math.isfinite(last):
            return losses, "nonfinite"
        if last <= options.zero or (first > 0 and last <= (1 - options.drop) * first):
            return losses, "target"
        if ctx.expired():
            return losses, "time"
    return losses, "steps"
