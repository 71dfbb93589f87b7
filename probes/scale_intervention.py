"""scale_intervention: does standardising the inputs alone stop the training run from blowing up?

Inputs a hundred times too large make every normal learning rate too large: the loss explodes, the
learning-rate sweep finds its good band orders of magnitude low and gradients look exploding, so the
step size takes the blame for the data. This probe intervenes on the one suspect: it trains two copies
from the same state with the target's own step and optimizer, one on the batch as given and one on the
same batch with its off-scale float inputs standardised per feature, and compares.

May import: schemas, the probe registry and helpers.
"""

from __future__ import annotations

import math
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import clone_batch, copy_model, fork_rng, input_tensors, make_optimizer, train_step, with_tensors
from .registry import ProbeContext, not_applicable, probe


class ScaleInterventionOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"x-scale-option": "steps", "x-scale-min": 5})

    steps: int = Field(default=20, ge=2, le=1000, description="training steps of each run")
    scale: float = Field(default=50.0, gt=0, description="feature mean or std above which an input is off scale")
    blowup: float = Field(default=10.0, gt=1, description="a loss this many times its first value has diverged")


def _features(t: torch.Tensor) -> torch.Tensor:
    return t.detach().reshape(t.shape[0], -1).float()  # (B, F): one column per feature


def _off_scale(t: torch.Tensor, scale: float) -> bool:
    """A float input whose features are far from zero mean and unit spread (data_audit's bar)."""
    if not t.is_floating_point() or t.dim() == 0 or t.shape[0] < 2:
        return False
    x = _features(t)
    return float(x.mean(0).abs().max()) > scale or float(x.std(0).max()) > scale


def _standardised(t: torch.Tensor) -> torch.Tensor:
    """Each feature to zero mean and unit spread over the batch (constant features only centred)."""
    x = _features(t)
    std = x.std(0)
    z = (x - x.mean(0)) / torch.where(std > 0, std, torch.ones_like(std))
    return z.reshape(t.shape).to(t.dtype)


def _run(target: Target, ctx: ProbeContext, batch: tuple[Any, Any], steps: int) -> list[float]:
    """Losses of `steps` training steps of a fresh copy on `batch`, stopping at the first non-finite one."""
    model = copy_model(target).train()
    opt = make_optimizer(target, model)
    losses: list[float] = []
    with fork_rng(model):
        torch.manual_seed(ctx.seed)  # both runs draw the same dropout masks and noise
        for _ in range(steps):
            losses.append(train_step(target, model, opt, clone_batch(batch)))
            if not math.isfinite(losses[-1]) or ctx.expired():
                break
    return losses


def _diverged(losses: list[float], blowup: float) -> bool:
    if not losses or not math.isfinite(losses[0]):
        return False  # a loss that starts non-finite is another finding (init_loss, nonfinite_trace)
    return any(not math.isfinite(v) for v in losses) or max(losses) > blowup * max(abs(losses[0]), 1e-12)


@probe(
    headline=("raw_max_loss", "standardised_max_loss"),
    outcomes=("scaling_cures_divergence", "diverges_when_scaled", "scale_not_blocking"),
    requires=("model", "batch", "loss_fn"),
    cost=40.0,
    options=ScaleInterventionOptions,
)
def scale_intervention(target: Target, ctx: ProbeContext, options: ScaleInterventionOptions) -> ProbeResult:
    """Train on the batch as given and with its off-scale inputs standardised: is the scale what diverges?

    Applies when a float input has a feature whose mean or standard deviation over the batch exceeds
    `scale`. Two copies start from the target's values and take `steps` steps with its optimizer (and
    its own `train_step`, when given), under the same seed. Fails with `scaling_cures_divergence` when
    the loss as given blows up (non-finite, or `blowup` times its first value) and the standardised run
    does not: the input scale, not the learning rate, makes the steps overshoot. Fails with
    `diverges_when_scaled` when both blow up (the scale is not what breaks the run), and passes with
    `scale_not_blocking` when the run as given does not blow up.
    """
    inputs, targets = clone_batch(target.batch)
    tensors = input_tensors(inputs)
    big = [i for i, t in enumerate(tensors) if _off_scale(t, options.scale)]
    if not big:
        why = f"no float input with a feature mean or std above {options.scale:g}"
        return not_applicable("scale_intervention", why)
    fixed = [_standardised(t) if i in big else t for i, t in enumerate(tensors)]
    raw = _run(target, ctx, (inputs, targets), options.steps)
    scaled = _run(target, ctx, (with_tensors(inputs, fixed), targets), options.steps)
    meas = {
        "inputs_standardised": big,
        "raw_max_loss": _largest(raw),
        "standardised_max_loss": _largest(scaled),
        "steps": [len(raw), len(scaled)],
    }
    raw_bad, scaled_bad = _diverged(raw, options.blowup), _diverged(scaled, options.blowup)
    if raw_bad and not scaled_bad:
        text = (
            f"as given the loss blows up ({raw[0]:.4g} -> {meas['raw_max_loss']}) within {len(raw)} steps; with the "
            f"same model, optimizer and steps on standardised inputs it stays at most {meas['standardised_max_loss']}"
        )
        return ProbeResult(
            name="scale_intervention", status="failed", outcomes=["scaling_cures_divergence"],
            findings=[Finding(text=text)], measurements=meas, summary=text,
        )  # fmt: skip
    if raw_bad:
        text = "the loss blows up both as given and on standardised inputs: the input scale is not what breaks the run"
        return ProbeResult(
            name="scale_intervention", status="failed", outcomes=["diverges_when_scaled"],
            findings=[Finding(text=text)], measurements=meas, summary=text,
        )  # fmt: skip
    return ProbeResult(
        name="scale_intervention", status="passed", outcomes=["scale_not_blocking"], measurements=meas,
        summary=f"the loss does not blow up in {len(raw)} steps on the inputs as given, off scale as they are",
    )  # fmt: skip


def _largest(losses: list[float]) -> float | str:
    if any(not math.isfinite(v) for v in losses):
        return "nan/inf"
    return float(f"{max(losses):.4g}") if losses else float("nan")
