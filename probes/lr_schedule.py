"""lr_schedule: is the learning-rate schedule stepped at the pace it was written for?

A schedule written in epochs (StepLR(step_size=30), CosineAnnealingLR(T_max=epochs)) and stepped once
per batch runs hundreds of times too fast: the learning rate reaches its final value within the first
epoch and training stalls. The probe reads the schedulers a training run stepped: the run of your
script that `ask -- python train.py` observed, or a few calls of your `train_step` on a copy. For a
scheduler stepped at every optimizer step, a copy of it is projected over half an epoch of batches at
that pace (the throwaway copy never moves your scheduler or optimizer).

May import: schemas, the probe registry and helpers.
"""

from __future__ import annotations

import math
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import Finding, ProbeResult, ScheduleRecord, Target, TrainObservation

from ._common import clone_batch, copy_model, fork_rng, make_optimizer, train_step
from ._data import _first_tensor
from ._schedule import ScheduleWatch
from .registry import ProbeContext, not_applicable, probe

# A single step() call that cuts the rate by at least this factor is a decay sized in epochs, not steps.
EPOCH_SIZED_CUT = 0.99


class LRScheduleOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    floor: float = Field(default=0.1, gt=0, lt=1, description="lr/peak at or below which the schedule has ended")
    steps: int = Field(default=6, ge=3, le=50, description="train_step calls on a copy (no observed run)")


def _epoch_batches(target: Target) -> int | None:
    """Batches in one epoch of train_data: its length for a DataLoader or a list of batches, else the
    number of examples over the batch's size."""
    data = target.train_data
    if data is None:
        return None
    if isinstance(data, (torch.utils.data.DataLoader, list)):
        return len(data) if hasattr(data, "__len__") else None
    ref = _first_tensor(target.batch[0])
    rows = len(data[0]) if isinstance(data, tuple) and len(data) == 2 else len(data) if hasattr(data, "__len__") else 0
    if ref is None or ref.dim() == 0 or not rows:
        return None
    return math.ceil(rows / max(1, len(ref)))


def _from_train_step(target: Target, ctx: ProbeContext, options: LRScheduleOptions) -> list[ScheduleRecord]:
    """Run the user's train_step `steps` times on a copy and record the schedulers it steps."""
    model = copy_model(target)
    opt = make_optimizer(target, model)
    count = [0]
    hook = opt.register_step_post_hook(lambda *_: count.__setitem__(0, count[0] + 1))
    epoch = _epoch_batches(target)
    try:
        with fork_rng(model), ScheduleWatch(lambda: count[0], lambda: epoch) as watch:
            torch.manual_seed(ctx.seed)
            for _ in range(options.steps):
                train_step(target, model, opt, clone_batch(target.batch))
    finally:
        hook.remove()
    return watch.records()


@probe(
    headline=("lowest_lr_ratio",),
    outcomes=("schedule_ends_early", "schedule_spans_epoch", "schedule_per_epoch"),
    requires=("model",),
    cost=7.0,  # six train_step calls on a copy
    observed_cost=0.05,  # on an observed run it only reads the record of scheduler calls
    options=LRScheduleOptions,
)
def lr_schedule(target: Target, ctx: ProbeContext, options: LRScheduleOptions) -> ProbeResult:
    """Is the LR scheduler stepped at the pace it was written for (per epoch vs per batch)?

    Reads the schedulers your observed training run stepped, or runs your `train_step` a few times on
    a copy. A scheduler stepped at every optimizer step whose learning rate, projected on a copy over
    half an epoch of batches, falls to `floor` of its peak or below is `schedule_ends_early` (a schedule
    in epochs stepped per batch), and so is a decay that never rises (StepLR, MultiStepLR, ExponentialLR)
    which first changes within one epoch and falls to `floor` within five; one that stays above is
    `schedule_spans_epoch`. A scheduler stepped less often than every optimizer step is
    `schedule_per_epoch`. Cyclic and one-cycle schedules, which torch documents as stepped per batch,
    count as spanning. Not applicable when no scheduler is stepped.
    """
    obs = target.observation
    if isinstance(obs, TrainObservation) and obs.steps:
        records, script = obs.schedulers, True
    elif target.train_step is not None and target.loss_fn is not None:
        records, script = _from_train_step(target, ctx, options), False
    else:
        return not_applicable("lr_schedule", "no observed run and no train_step: no scheduler to watch")
    if not records:
        return not_applicable("lr_schedule", "no learning-rate scheduler was stepped during the training steps run")
    return _verdict(records, options, script)


def _verdict(records: list[ScheduleRecord], options: LRScheduleOptions, script: bool) -> ProbeResult:
    per_step = [r for r in records if r.per_step]
    if not per_step:
        text = f"{records[0].kind}.step() is called less often than once per optimizer step (per epoch)"
        return _result("passed", ["schedule_per_epoch"], text, records[0], [])
    early = [
        r
        for r in per_step
        if not r.per_batch_by_design and r.projected_min_ratio is not None and r.projected_min_ratio <= options.floor
    ]
    decays = [r for r in per_step if not r.per_batch_by_design and _decays_in_epochs(r, options.floor)]
    if early:
        r = early[0]
        text = (
            f"{r.kind}.step() runs at every optimizer step, and at that pace the learning rate falls to "
            f"{r.projected_min_ratio:.2%} of its peak after {r.projected_min_at} batches, within the first half of "
            f"an epoch of {r.epoch_batches} batches: a schedule written in epochs is being stepped per batch"
        )
    elif decays:
        r = decays[0]
        text = (
            f"{r.kind}.step() runs at every optimizer step: at that pace the learning rate first changes after "
            f"{r.first_change_at} batches, within the first epoch of {r.epoch_batches}, and falls to "
            f"{r.long_min_ratio:.2%} of its peak after {r.long_min_at} batches "
            f"({(r.long_min_at or 0) / (r.epoch_batches or 1):.1f} epochs): a decay written in epochs is being "
            "stepped per batch"
        )
    if early or decays:
        where = (r.where.ref if script else f"{r.where.file}:{r.where.line}") if r.where else None
        found = [Finding(text=text, where=where, code=r.where.code if r.where else None)]
        return _result("failed", ["schedule_ends_early"], text, r, found)
    known = [r for r in per_step if r.projected_min_ratio is not None or r.per_batch_by_design]
    if not known:
        text = f"{per_step[0].kind}.step() runs at every optimizer step, but the epoch's length is unknown: no verdict"
        return _result("inconclusive", [], text, per_step[0], [])
    r = known[0]
    low = r.projected_min_ratio
    text = f"{r.kind}.step() runs at every optimizer step and its learning rate spans the epoch" + (
        f" (lowest {low:.0%} of its peak over half an epoch)" if low is not None else ""
    )
    return _result("passed", ["schedule_spans_epoch"], text, r, [])


def _decays_in_epochs(r: ScheduleRecord, floor: float) -> bool:
    """A decay that never rises, first changing within one epoch and ending within a few: sized in epochs.
    Its first change cuts the rate by 1% or more at once; a decay of a fraction of a percent per call
    (`ExponentialLR(gamma=0.999)`) is sized in optimizer steps, stepped as meant."""
    return (
        r.long_min_ratio is not None
        and r.long_min_ratio <= floor
        and r.first_change_at is not None
        and r.epoch_batches is not None
        and r.first_change_at < r.epoch_batches
        and (r.first_change_ratio is None or r.first_change_ratio <= EPOCH_SIZED_CUT)
    )


def _result(status: str, outcomes: list[str], text: str, r: ScheduleRecord, found: list[Finding]) -> ProbeResult:
    meas: dict[str, Any] = {
        "scheduler": r.kind,
        "calls_at_optimizer_steps": r.calls_at[:12],
        "epoch_batches": r.epoch_batches,
        "lowest_lr_ratio": r.projected_min_ratio,
        "lowest_at_batch": r.projected_min_at,
        "first_change_at_batch": r.first_change_at,
        "lowest_lr_ratio_few_epochs": r.long_min_ratio,
    }
    return ProbeResult(
        name="lr_schedule", status=status, outcomes=outcomes, findings=found, measurements=meas, summary=text
    )  # type: ignore[arg-type]
