"""dying_units: units that are alive at initialisation and die while the model trains.

The activations probe judges the model as given. A ReLU whose units are alive at the start can still
die during training (a large step pushes their pre-activations below zero for every input, and then no
gradient brings them back), often at the output (a ReLU on a regression head) where the prediction
becomes 0 everywhere. A copy trains `steps` steps with the user's optimizer and step on the training
batches, and the activation sites are judged again on the batch.

May import: schemas, the probe registry and helpers.
"""

from __future__ import annotations

import math
from itertools import cycle, islice
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import clone_batch, copy_model, fork_rng, forward, make_optimizer, train_step
from ._data import training_batches
from .activations import _Recorder
from .registry import ProbeContext, probe


class DyingUnitsOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"x-scale-option": "steps", "x-scale-min": 20})

    steps: int = Field(default=60, ge=5, le=1000, description="training steps on a copy")
    dead: float = Field(default=0.5, gt=0, le=1, description="fraction of dead units that flags a layer after training")
    alive: float = Field(default=0.25, ge=0, lt=1, description="most dead units a layer may have at the start")


def _dead(target: Target, model: torch.nn.Module) -> dict[str, tuple[float, str, str]]:
    """Per activation site: (fraction of units dead on the batch, op, source line)."""
    rec = _Recorder(batch=target.batch_size)
    with torch.no_grad(), rec:
        forward(target, model, clone_batch(target.batch)[0])
    return {w: (max(s.dead), s.op, s.code) for w, s in rec.sites.items() if s.kind in ("rectifier", "smooth")}


@probe(
    headline=("died_fraction",),
    outcomes=("units_die_in_training", "units_stay_alive"),
    requires=("model", "batch", "loss_fn"),
    cost=62.0,  # 60 training steps and two forwards
    options=DyingUnitsOptions,
)
def dying_units(target: Target, ctx: ProbeContext, options: DyingUnitsOptions) -> ProbeResult:
    """Do rectifier units alive at the start die while training (a dead output ReLU, a layer gone silent)?

    Trains a copy `steps` steps with your optimizer and step on the training batches (`train_data`, else
    the batch), then judges the ReLU-family sites on the batch again: a layer with at most `alive` of its
    units dead at the start (or whose dead share rose by more than `dead`, or that ends with every unit dead
    while some lived at the start) and more than `dead` after is
    `units_die_in_training`; none is `units_stay_alive`. A run that turns non-finite, or a model without
    rectifiers, gives no verdict.
    """
    model = copy_model(target).train()
    before = _dead(target, model)
    if not before:
        return ProbeResult(name="dying_units", status="not_applicable", summary="no ReLU-family activation in forward")
    opt = make_optimizer(target, model)
    batches = training_batches(target.batch, target.train_data, options.steps) or [target.batch]
    with fork_rng(model):
        torch.manual_seed(ctx.seed)
        for batch in islice(cycle(batches), options.steps):
            loss = train_step(target, model, opt, clone_batch(batch))
            if not math.isfinite(loss):
                return ProbeResult(
                    name="dying_units", status="inconclusive", summary="the training copy went non-finite: no verdict"
                )
    after = _dead(target, model.train())
    # died: mostly alive at the start, or a share of dead units that rose by more than `dead` while training
    # (a class-score ReLU with 3 of 10 units dead at init and all 10 after has died in training), or a layer
    # partly alive at the start and wholly dead after: no gradient crosses it any more (a 2-unit bottleneck)
    at_start = {w: before.get(w, (1.0,))[0] for w in after}  # a site first seen after training: no verdict
    died = {
        w: v for w, v in after.items()
        if v[0] > options.dead
        and (at_start[w] <= options.alive or v[0] - at_start[w] > options.dead or (v[0] >= 1.0 > at_start[w]))
    }  # fmt: skip
    meas: dict[str, Any] = {
        "steps": options.steps,
        "died_fraction": max((v[0] for v in died.values()), default=0.0),
        "dead_before": {w: round(v[0], 4) for w, v in before.items()},
        "dead_after": {w: round(v[0], 4) for w, v in after.items()},
    }
    if not died:
        summary = f"after {options.steps} training steps no rectifier layer has gone dead ({len(after)} site(s))"
        return ProbeResult(
            name="dying_units", status="passed", outcomes=["units_stay_alive"], measurements=meas, summary=summary
        )
    findings = [
        Finding(
            text=f"{v[0]:.0%} of the units after `{v[1]}` are 0 for every example after {options.steps} training "
            f"steps (at most {before[w][0]:.0%} were at the start): they died while training",
            where=w if ":" in w else None,
            code=v[2] or None,
        )
        for w, v in died.items()
    ]
    return ProbeResult(
        name="dying_units", status="failed", outcomes=["units_die_in_training"], measurements=meas,
        findings=findings, summary=findings[0].text,
    )  # fmt: skip
