"""train_observation: what the passive observation of the real training run shows, at the user's lines.

Reads `target.observation` (a TrainObservation recorded while the user's own script ran) and turns
it into outcome tags with findings located as `script:<file>:<line>`: gradients not cleared before a
backward, evaluation passes with dropout/batch norm in training mode, training in eval mode,
parameters with a gradient that no step changed, parameters that never got a gradient, a frozen
output layer, the first non-finite loss, a loss that does not decrease.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import Finding, ProbeResult, Site, Target, TrainObservation

from .registry import ProbeContext, probe

DEFECTS = (
    "grads_not_cleared",
    "eval_in_train_mode",
    "train_in_eval_mode",
    "params_never_updated",
    "params_without_grad",
    "head_frozen",
    "nonfinite_loss",
)


class TrainObservationOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rise: float = Field(default=1.5, gt=1, description="last/first loss ratio above which the loss counts as rising")


def _finding(text: str, site: Site | None, **data: Any) -> Finding:
    if site is None:
        return Finding(text=text, data=data)
    return Finding(text=text, where=site.ref, code=site.code or None, data=data)


def _grads(obs: TrainObservation, tags: list[str], found: list[Finding]) -> None:
    known = [s for s in obs.steps if s.grads_cleared is not None]
    stale = [s for s in known if s.grads_cleared is False]
    if known and len(stale) * 2 >= len(known):
        s = stale[0]
        tags.append("grads_not_cleared")
        found.append(
            _finding(
                f"at {len(stale)} of {len(known)} steps the gradients of the previous step were still in .grad when "
                "backward ran again (no zero_grad between steps)",
                s.backward_where or s.where,
                steps=[x.index for x in stale][:20],
            )
        )
    elif known:
        tags.append("grads_cleared")


def _modes(obs: TrainObservation, tags: list[str], found: list[Finding]) -> None:
    evals = [p for p in obs.passes if p.role == "eval"]
    bad = [p for p in evals if p.modes_train]
    if bad:
        p = bad[0]
        tags.append("eval_in_train_mode")
        found.append(
            _finding(
                f"an evaluation pass ({'under no_grad' if not p.grad_enabled else 'no backward followed'}) ran "
                f"{len(p.modes_train)} dropout/batch-norm module(s) in training mode: {', '.join(p.modes_train[:5])}",
                p.where,
                calls=p.calls,
            )
        )
    elif any(p.modes_eval for p in evals):
        tags.append("eval_mode_ok")
    trains = [p for p in obs.passes if p.role == "train"]
    off = [p for p in trains if p.modes_eval and not p.modes_train and not p.model_training]
    if off:
        p = off[0]
        tags.append("train_in_eval_mode")
        found.append(
            _finding(
                f"a training pass (followed by backward) ran with the model in eval mode: "
                f"{', '.join(p.modes_eval[:5])} were not in training mode",
                p.where,
                calls=p.calls,
            )
        )
    elif any(p.modes_train for p in trains):
        tags.append("train_mode_ok")


def _params(obs: TrainObservation, tags: list[str], found: list[Finding], last_param: str | None) -> None:
    step_site = obs.steps[-1].where if obs.steps else None
    if obs.params_never_changed or obs.params_not_in_optimizer:
        names = obs.params_not_in_optimizer or obs.params_never_changed
        tags.append("params_never_updated")
        why = (
            "are not in any optimizer param group"
            if obs.params_not_in_optimizer
            else "got gradients but no step changed them"
        )
        found.append(_finding(f"{len(names)} parameter tensor(s) {why}: {', '.join(names[:6])}", step_site))
    if obs.params_never_grad:
        tags.append("params_without_grad")
        found.append(
            _finding(
                f"{len(obs.params_never_grad)} trainable parameter tensor(s) never received a gradient in "
                f"{len(obs.steps)} steps: {', '.join(obs.params_never_grad[:6])}",
                obs.steps[0].backward_where if obs.steps else None,
            )
        )
    if obs.params_frozen and last_param in obs.params_frozen:
        tags.append("head_frozen")
        found.append(
            _finding(
                f"the output layer's parameters are frozen (requires_grad=False): "
                f"{', '.join(n for n in obs.params_frozen if n.rsplit('.', 1)[0] == last_param.rsplit('.', 1)[0])}",
                step_site,
            )
        )
    elif obs.params_frozen:
        tags.append("params_frozen")
    if not any(t in tags for t in ("params_never_updated", "params_without_grad", "head_frozen")) and obs.steps:
        tags.append("params_updated")


def _loss(obs: TrainObservation, options: TrainObservationOptions, tags: list[str], found: list[Finding]) -> None:
    if obs.first_nonfinite is not None:
        nf = obs.first_nonfinite
        tags.append("nonfinite_loss")
        found.append(_finding(f"the first non-finite value ({nf.what}) appeared at step {nf.step}", nf.where))
        return
    losses = [v for v in obs.losses if v is not None and math.isfinite(v)]
    if len(losses) < 4:
        return
    half = len(losses) // 2
    first, last = sum(losses[:half]) / half, sum(losses[-half:]) / half
    if last > first * options.rise:
        tags.append("loss_rising")
    elif last < first:
        tags.append("loss_decreasing")
    else:
        tags.append("loss_not_decreasing")


@probe(
    outcomes=DEFECTS
    + (
        "grads_cleared",
        "eval_mode_ok",
        "train_mode_ok",
        "params_updated",
        "params_frozen",
        "loss_decreasing",
        "loss_not_decreasing",
        "loss_rising",
        "clean",
    ),
    requires=("model", "observation"),
    cost=0.05,
    options=TrainObservationOptions,
    headline=("steps",),
)
def train_observation(target: Target, ctx: ProbeContext, options: TrainObservationOptions) -> ProbeResult:
    """What the observed run of your script did: grads cleared, train/eval modes, params updated, loss.

    Needs no extra run: it reads what the hooks recorded while your own command trained for a few
    steps, and cites the lines of your script where each thing happened.
    """
    obs = target.observation
    if not isinstance(obs, TrainObservation) or not obs.steps:
        return ProbeResult(name="train_observation", status="not_applicable", summary="no observed training run")
    tags: list[str] = []
    found: list[Finding] = []
    last = _last_param(target)
    _grads(obs, tags, found)
    _modes(obs, tags, found)
    _params(obs, tags, found, last)
    _loss(obs, options, tags, found)
    defects = [t for t in tags if t in DEFECTS]
    if not defects:
        tags.append("clean")
    meas: dict[str, Any] = {
        "steps": len(obs.steps),
        "step_kind": obs.steps[0].kind,
        "losses": [round(v, 6) if v is not None and math.isfinite(v) else None for v in obs.losses][:64],
        "lr": obs.steps[0].lr,
        "grad_norms": [s.grad_norms for s in obs.steps][:16],
        "ended": obs.ended,
        "loaders": [f"{ld.key} ({ld.role}, {ld.batches} batches)" for ld in obs.loaders][:8],
    }
    ended = f"; the run then {obs.ended.replace('_', ' ')}" + (f" ({obs.error})" if obs.error else "")
    summary = (
        f"{len(obs.steps)} {obs.steps[0].kind} step(s) observed: "
        + (", ".join(defects) if defects else "nothing wrong")
    ) + (ended if obs.ended == "crash" else "")
    return ProbeResult(
        name="train_observation",
        status="failed" if defects else "passed",
        summary=summary,
        outcomes=tags,
        findings=found,
        measurements=meas,
    )


def _last_param(target: Target) -> str | None:
    """The name of the last parameter registered in the model (its output layer, in the usual order)."""
    names = [n for n, _ in target.model.named_parameters()]
    return names[-1] if names else None
