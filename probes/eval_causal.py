"""eval_causal: does the evaluation routine keep the causal order the training forward keeps?

Translation and generation code often builds its masks twice: once in the dataset for training, once in
the decode or translate routine. When the second one is inverted or missing, training and teacher-forced
validation look fine while decoding reads tokens it has not produced yet. The `dependency` probe tests
the model's forward with the batch's own masks; this one tests `eval_fn`, with whatever it builds.

May import: schemas, the probe registry and helpers.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import ProbeResult, Target

from ._common import clone_batch, copy_model, input_tensors, run_eval_fn, with_tensors
from ._positions import CausalOptions, causal_test
from .registry import ProbeContext, not_applicable, probe


class EvalCausalOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tol: float = Field(default=1e-4, gt=0, description="relative output change that counts as reading the future")
    max_cut_passes: int = Field(default=8, ge=1, le=256, description="eval_fn calls allowed for the cut test")


@probe(
    headline=("causal_leaks",),
    outcomes=("eval_path_sees_future", "eval_path_causal"),
    requires=("model", "batch", "eval_fn"),
    cost=1.0,
    options=EvalCausalOptions,
)
def eval_causal(target: Target, ctx: ProbeContext, options: EvalCausalOptions) -> ProbeResult:
    """For causal targets: run `eval_fn` with each row's later positions changed; do earlier outputs move?

    Each row of the batch gets its own cut position; only positions at or after it are changed (token ids
    replaced, float features moved by noise) in every input with that sequence length, and `eval_fn` runs
    on a copy in eval mode. Outputs before the cut must not move: when they do, the evaluation path reads
    the future (`eval_path_sees_future`: a decode mask built inverted or not at all), else
    `eval_path_causal`. Only for targets that are causal (declared, or inferred from next-token targets)
    with batch-first inputs.
    """
    if not target.causal:
        return not_applicable("eval_causal", "the target is not causal (declare causal=True for a decoder)")
    if any(a != 0 for a in target.input_axes):
        return not_applicable("eval_causal", "inputs are not batch-first")
    model = copy_model(target).eval()
    raw, labels = clone_batch(target.batch)
    inputs = tuple(input_tensors(raw))

    def call(xs: Any) -> Any:
        return run_eval_fn(target, model, (with_tensors(raw, list(xs)), labels))

    opts = CausalOptions(tol=options.tol, max_cut_passes=options.max_cut_passes)
    tags, meas, findings = causal_test(call, inputs, (target.sequence_dim, 0), opts, ctx.seed)
    if not tags:
        return ProbeResult(
            name="eval_causal", status="inconclusive", outcomes=[], measurements=meas,
            summary="eval_fn's output has no per-position axis of the inputs' sequence length",
        )  # fmt: skip
    if "causal_leak" not in tags:
        summary = f"eval_fn keeps causal order at {meas['causal_cuts_tested']} cut positions"
        return ProbeResult(name="eval_causal", status="passed", outcomes=["eval_path_causal"], measurements=meas,
                           summary=summary)  # fmt: skip
    for f in findings[:1]:
        f.text = "eval_fn: " + f.text + " while the training forward is tested by dependency with the batch's masks"
    return ProbeResult(
        name="eval_causal", status="failed", outcomes=["eval_path_sees_future"], measurements=meas,
        findings=findings, summary=f"the evaluation routine reads later positions: {findings[0].text}",
    )  # fmt: skip
