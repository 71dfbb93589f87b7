"""grad_spikes: do a few training batches give gradients far larger than the rest?

A batch holding outliers (walkers far out in a distribution's tails, a rare very long sequence, an
unclipped extreme target) can give a gradient a hundred times the usual one; one optimizer step on it
undoes much of what was learned, and the loss jumps although every other batch is fine. An average over
steps hides such a step, so a short training walk notes every step's gradient norm on its own.

May import: schemas, the probe registry and helpers.
"""

from __future__ import annotations

import math
from statistics import median
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import clone_batch, copy_model, make_optimizer, train_step
from ._data import training_batches
from .registry import ProbeContext, not_applicable, probe


class GradSpikesOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    steps: int = Field(default=400, ge=8, le=5000, description="training steps walked over train_data's batches")
    ratio: float = Field(default=20.0, gt=1, description="gradient norm over the recent median's that is a spike")
    window: int = Field(default=50, ge=4, le=1000, description="steps the recent median is taken over")


def _step(target: Target, model: torch.nn.Module, opt: torch.optim.Optimizer, batch: Any) -> float:
    """One training step on a batch (the user's own `train_step` when given, so their clipping counts); the
    L2 norm over all parameters of the gradient the step left (nan: none left, or a non-finite loss)."""
    for p in model.parameters():
        p.grad = None
    loss = train_step(target, model, opt, clone_batch(batch))
    grads = [p.grad.detach().double().pow(2).sum() for p in model.parameters() if p.grad is not None]
    if not grads or not math.isfinite(loss):
        return math.nan
    return float(torch.stack(grads).sum().sqrt())


@probe(
    headline=("spike_ratio",),
    outcomes=("grad_spike_batches", "grad_norms_even"),
    requires=("model", "loss_fn", "train_data"),
    cost=3.0,
    options=GradSpikesOptions,
)
def grad_spikes(target: Target, ctx: ProbeContext, options: GradSpikesOptions) -> ProbeResult:
    """Train a copy over train_data's batches in order: does one step's gradient dwarf the recent ones?

    A training-mode copy takes up to `steps` steps (the user's `train_step` when given, so gradient clipping
    there counts) with the target's optimizer, walking train_data's batches as the user's epoch yields them
    (or consecutive slices of the batch's size), then one on the target's own batch; each step's gradient
    norm is noted. A step whose norm is `ratio` times the median
    of the `window` steps before it or more is a spike (`grad_spike_batches`): that step is that many
    times bigger than the others, the loss jumps, and clipping is what bounds it. Else `grad_norms_even`.
    Needs `window` batches or more; stops at the time budget.
    """
    batches = training_batches(target.batch, target.train_data, options.steps)
    if len(batches) < options.window:
        why = f"train_data holds {len(batches)} batches, fewer than the {options.window} a spike is judged against"
        return not_applicable("grad_spikes", why)
    model = copy_model(target).train()
    opt = make_optimizer(target, model)
    norms: list[float] = []
    for batch in [*batches, target.batch]:
        if ctx.expired():
            break
        norms.append(_step(target, model, opt, batch))
    meas: dict[str, Any] = {"steps": len(norms)}
    worst, ratio = _worst(norms, options.window)
    if worst is None:
        return ProbeResult(name="grad_spikes", status="inconclusive", outcomes=[], measurements=meas,
                           summary=f"{len(norms)} steps: too few with a finite gradient to compare")  # fmt: skip
    meas.update(spike_ratio=float(f"{ratio:.3g}"), spike_step=worst, spike_grad_norm=float(f"{norms[worst]:.4g}"))
    if ratio < options.ratio:
        summary = f"over {len(norms)} training steps no gradient norm exceeds {ratio:.1f}x the recent median"
        return ProbeResult(name="grad_spikes", status="passed", outcomes=["grad_norms_even"], measurements=meas,
                           summary=summary)  # fmt: skip
    which = "the target's batch" if worst == len(batches) else f"training batch {worst}"
    text = (
        f"step {worst + 1} ({which}) has a gradient norm of {norms[worst]:.4g}, {ratio:.0f}x the median of the "
        f"{options.window} steps before it: one step that many times bigger (outliers in the batch; clip the "
        "gradient norm)"
    )
    return ProbeResult(name="grad_spikes", status="failed", outcomes=["grad_spike_batches"], measurements=meas,
                       findings=[Finding(text=text)], summary=text)  # fmt: skip


def _worst(norms: list[float], window: int) -> tuple[int | None, float]:
    """The step whose gradient norm is the largest multiple of the median of the `window` finite ones before it."""
    best: tuple[int | None, float] = (None, 0.0)
    for i in range(window, len(norms)):
        before = [n for n in norms[i - window : i] if math.isfinite(n)]
        if len(before) < window // 2 or not math.isfinite(norms[i]) or median(before) <= 0:
            continue
        r = norms[i] / median(before)
        if r > best[1]:
            best = (i, r)
    return best
