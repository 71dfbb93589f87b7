"""eval_randomness: is an eval-mode forward random (stateless) or does it read state from earlier calls?

Two different findings that look alike from outside ("evaluation is not repeatable"): a forward
that still draws random numbers in eval mode (dropout called with `training=True`, an attention
dropout probability passed regardless of `self.training`) and a forward that reads state an
earlier call wrote. Reseeding separates them: a random forward repeats exactly under the same seed
and changes under another; a stateful one changes even under the same seed.

May import: schemas, the probe registry and helpers.
"""

from __future__ import annotations

from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field
from torch import nn

from debug_agent.schemas import Finding, ProbeResult, ProbeStatus, Target

from ._common import call_flat, clone, clone_batch, copy_model, finding_at, fork_rng, main_tensor
from ._draws import SAMPLING, RandomOps
from ._module_calls import ModuleCallWatch
from .registry import ProbeContext, probe


class EvalRandomnessOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tol: float = Field(default=1e-6, gt=0, description="relative difference that counts as a different output")


def _gap(a: torch.Tensor, b: torch.Tensor) -> float:
    if a.shape != b.shape:
        return float("inf")
    return float((a - b).abs().max() / (a.abs().max() + 1e-12)) if a.numel() else 0.0


@probe(
    headline=("other_seed_gap", "same_seed_repeat_gap"),
    outcomes=("eval_repeatable", "eval_random", "eval_stateful", "eval_sampling", "eval_layers_rebuilt"),
    cost=1.0,
    options=EvalRandomnessOptions,
)
def eval_randomness(target: Target, ctx: ProbeContext, options: EvalRandomnessOptions) -> ProbeResult:
    """Eval-mode forward under the same seed twice and under another seed: random, stateful or repeatable?

    Puts a copy in eval mode and calls it on the batch four times, reseeding before each call: twice
    in a row on one copy with the same seed, once on a fresh copy with another seed, once on a fresh
    copy with the first seed. Same seed, different output on the second call: forward reads state an
    earlier call wrote (cross-call state). Same seed repeats but another seed changes the output: the
    eval-mode forward is random but keeps no state (dropout called with training=True, attention
    dropout passed regardless of self.training), unless every draw is sampling (Gaussian noise, integers,
    categorical: never a dropout mask), as a VAE's latent or a diffusion step's noise and timestep are by
    design (`eval_sampling`, passed). A forward that constructs layers with parameters on each call is
    random through their fresh initialisation (`eval_layers_rebuilt`): weights nothing trains.
    Random draws made during the forward are listed with their source lines. Forward passes only.
    """
    base = copy_model(target).eval()
    recorder = RandomOps()

    def call(model: nn.Module, seed: int, record: bool = False) -> torch.Tensor:
        with fork_rng(model), torch.no_grad():
            torch.manual_seed(seed)
            if record:
                with recorder:
                    out = call_flat(target, model, clone_batch(target.inputs))
            else:
                out = call_flat(target, model, clone_batch(target.inputs))
        return main_tensor(out).detach().double().cpu().clone()

    one = clone(base)
    with ModuleCallWatch(one) as calls:  # layers constructed in forward draw fresh random weights per call
        first = call(one, ctx.seed, record=True)
        repeat = call(one, ctx.seed)
    other = call(clone(base, target), ctx.seed + 1)
    again = call(clone(base, target), ctx.seed)
    meas: dict[str, Any] = {
        "same_seed_repeat_gap": float(f"{_gap(first, repeat):.3g}"),
        "other_seed_gap": float(f"{_gap(first, other):.3g}"),
        "fresh_copy_gap": float(f"{_gap(first, again):.3g}"),
        "random_draws_in_eval_forward": [w for w, _ in recorder.calls][:10],
    }
    if built := calls.built_in_forward():
        meas["layers_built_in_forward"] = built
        if meas["other_seed_gap"] > options.tol:
            return _rebuilt(built, meas)
    return _judge(meas, recorder.calls, options.tol)


def _rebuilt(built: list[str], meas: dict[str, Any]) -> ProbeResult:
    """The forward's randomness is the initialisation of layers it constructs: not dropout left on."""
    text = (
        f"the eval-mode forward changes with the seed because it constructs layers with parameters on every call "
        f"({', '.join(built[:4])}): each call initialises fresh random weights, which nothing trains or saves"
    )
    return _result("failed", ["eval_layers_rebuilt"], [Finding(text=text)], meas, text)


def _judge(meas: dict[str, Any], calls: list[tuple[str, tuple[str, int, str] | None]], tol: float) -> ProbeResult:
    """Stateful, not repeatable, sampling, random or repeatable, from the three output gaps."""
    draws = [finding_at(f"eval-mode forward draws random numbers: {w}", fr, op=w) for w, fr in calls[:4]]
    if meas["same_seed_repeat_gap"] > tol:
        text = (
            f"a second eval-mode call with the same seed on the same copy differs (relative "
            f"{meas['same_seed_repeat_gap']:.2g}): forward reads state that the previous call wrote"
        )
        return _result("failed", ["eval_stateful"], [Finding(text=text)], meas, text)
    if meas["fresh_copy_gap"] > tol:
        text = "two fresh copies under the same seed disagree: the forward is not repeatable even when reseeded"
        return _result("inconclusive", [], [Finding(text=text)], meas, text)
    if meas["other_seed_gap"] > tol and calls and all(w in SAMPLING for w, _ in calls):
        text = (
            f"the eval-mode forward samples ({', '.join(sorted({w for w, _ in calls}))}) and changes with the seed "
            f"(relative {meas['other_seed_gap']:.2g}) but keeps no state: sampling, as a VAE or diffusion model "
            "does by design; no dropout is left on"
        )
        return _result("passed", ["eval_sampling"], draws, meas, text)
    if meas["other_seed_gap"] > tol:
        text = (
            f"the eval-mode forward repeats under the same seed but changes under another (relative "
            f"{meas['other_seed_gap']:.2g}): it is random but keeps no state"
        )
        return _result("failed", ["eval_random"], [Finding(text=text), *draws], meas, text)
    text = "the eval-mode forward repeats exactly, under any seed and after earlier calls"
    return _result("passed", ["eval_repeatable"], [], meas, text)


def _result(
    status: ProbeStatus, tags: list[str], findings: list[Finding], meas: dict[str, Any], summary: str
) -> ProbeResult:
    return ProbeResult(
        name="eval_randomness",
        status=status,
        outcomes=tags,
        findings=findings,
        measurements=meas,
        summary=summary,
    )
