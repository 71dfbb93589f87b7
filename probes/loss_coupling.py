"""loss_coupling: does the loss of one row depend on the model's outputs for other rows of the batch?"""

from __future__ import annotations

from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import clone_batch, copy_model, forward, main_tensor, with_main_tensor
from ._trace import OpRecorder, ShapeEvent
from .registry import ProbeContext, probe


class LossCouplingOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tol: float = Field(default=1e-4, gt=0, description="relative gradient change that counts as coupling")


def _grad_of_first_rows(
    target: Target, out: Any, logits: torch.Tensor, targets: Any, keep: int
) -> torch.Tensor | None:
    """d loss / d outputs of the first `keep` rows, for these outputs (None: the loss does not read them)."""
    leaf = logits.detach().clone().requires_grad_(True)
    loss = target.loss_fn(with_main_tensor(out, leaf), clone_batch(targets))
    if not isinstance(loss, torch.Tensor) or not loss.requires_grad:
        return None
    (grad,) = torch.autograd.grad(loss, leaf, allow_unused=True)
    return None if grad is None else grad[:keep].detach()


@probe(
    headline=("relative_change",),
    outcomes=("loss_couples_rows", "loss_rows_independent"),
    requires=("model", "batch", "loss_fn"),
    cost=1.0,
    options=LossCouplingOptions,
    per_row=True,
)
def loss_coupling(target: Target, ctx: ProbeContext, options: LossCouplingOptions) -> ProbeResult:
    """Change the model outputs of the second half of the batch; does the loss gradient of the first half move?

    A loss that is a mean or sum over rows (or tokens) gives each row a gradient from its own output and
    target only. A softmax, log-softmax or normalisation over the batch axis inside the loss (dim=0 where
    dim=-1 was meant) ties every row to the others, which the model-side `dependency` probe cannot see.
    Losses that compare rows on purpose (contrastive, in-batch negatives: a product of two batch-indexed
    tensors giving a (B, B) matrix, in the loss or in the forward that made its input) couple rows by
    design; then the result is inconclusive. The model runs once, in eval mode, on a copy; the loss only
    sees cloned tensors.
    """
    model = copy_model(target).eval()
    inputs, targets = target.batch
    rec = OpRecorder(batch_size=target.batch_size, reductions=True, batch_axis=target.input_axes[0])
    with torch.no_grad(), rec:
        out = forward(target, model, clone_batch(inputs))
    logits = main_tensor(out).detach()
    rows = logits.shape[0] if logits.dim() else 0
    if rows < 4 or rows != target.batch_size or not logits.is_floating_point():
        return ProbeResult(
            name="loss_coupling",
            status="not_applicable",
            summary="needs a floating output whose first axis is the batch, with at least 4 rows",
        )
    keep = rows // 2
    gen = torch.Generator(device="cpu").manual_seed(ctx.seed)
    moved = logits.clone()
    if logits.min() >= 0 and logits.max() <= 1:  # probabilities (a sigmoid head for BCE): stay in (0, 1)
        moved[keep:] = 0.01 + 0.98 * torch.rand(logits[keep:].shape, generator=gen).to(logits.device, logits.dtype)
    else:
        noise = torch.randn(logits[keep:].shape, generator=gen).to(logits.device, logits.dtype)
        moved[keep:] += noise * (logits.std() + 1.0)  # (B-keep, ...): only the other rows change
    rec.stage = "loss"
    with rec:
        base = _grad_of_first_rows(target, out, logits, targets, keep)
    try:
        other = _grad_of_first_rows(target, out, moved, targets, keep)
    except (RuntimeError, ValueError, AssertionError) as exc:  # the user's loss checks its inputs
        return ProbeResult(
            name="loss_coupling",
            status="inconclusive",
            summary=f"the loss rejects outputs moved off the model's ({type(exc).__name__}: {str(exc)[:120]}); "
            "row coupling untested",
        )
    if base is None or other is None:  # e.g. a loss the model computed itself (output.loss): nothing to test
        return ProbeResult(
            name="loss_coupling",
            status="not_applicable",
            summary="the loss does not read the model output's main tensor, so its row coupling cannot be tested",
        )
    change = float((base - other).abs().max() / (base.abs().max() + 1e-12))
    meas = {"rows": rows, "rows_held": keep, "relative_change": round(change, 6)}
    # Row-by-row products in the loss, or the one in forward that made the output the loss reads.
    pairs = [
        ev
        for ev in rec.events
        if ev.kind == "pairwise_batch" and (ev.stage == "loss" or sorted(ev.out_shape or []) == sorted(logits.shape))
    ]
    return _judge(change, options.tol, pairs, meas)


def _judge(change: float, tol: float, pairs: list[ShapeEvent], meas: dict[str, Any]) -> ProbeResult:
    """Coupled, coupled by design (a row-by-row product: no verdict) or independent."""
    keep, rows = meas["rows_held"], meas["rows"]
    if change > tol and pairs:
        ev = pairs[0]
        line = f" at {ev.where[0]}:{ev.where[1]}" if ev.where else ""
        text = (
            f"the loss gradient of rows 0..{keep - 1} moves with the other rows' outputs ({change:.1%}), and the "
            f"{ev.stage} compares rows with rows (`{ev.op}` gives {tuple(ev.out_shape or [])}{line}): a contrastive "
            "or in-batch-negative loss couples rows by design, so this test cannot tell a wrong axis from it"
        )
        meas["row_by_row_product"] = f"{ev.op} -> {tuple(ev.out_shape or [])}"
        return ProbeResult(name="loss_coupling", status="inconclusive", measurements=meas, summary=text)
    if change > tol:
        text = (
            f"changing the outputs of rows {keep}..{rows - 1} changes the loss gradient of rows 0..{keep - 1} "
            f"by {change:.1%}: the loss normalises or reduces across the batch axis (intended only for "
            "contrastive or in-batch-negative losses)"
        )
        return ProbeResult(
            name="loss_coupling",
            status="failed",
            outcomes=["loss_couples_rows"],
            measurements=meas,
            findings=[Finding(text=text)],
            summary=text.split(":")[0],
        )
    return ProbeResult(
        name="loss_coupling",
        status="passed",
        outcomes=["loss_rows_independent"],
        measurements=meas,
        summary="each row's loss gradient depends on its own output only",
    )
