"""train_coupling: in training mode, how much do a row's outputs depend on the other rows of the batch?

The dependency probe works in eval mode, where batch norm uses running statistics; coupling that
exists only while training (batch norm over a batch of 1-2 examples, statistics over a tiny batch)
is invisible there. This probe perturbs rows in training mode, every forward reseeded alike so
dropout draws the same masks, and compares what the other rows do to a row with what its own input
does.

May import: schemas, the probe registry and helpers.
"""

from __future__ import annotations

from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field
from torch import nn
from torch.overrides import TorchFunctionMode

from debug_agent.schemas import Finding, ProbeResult, ProbeStatus, Target

from ._common import call_flat, clone_batch, copy_model, finding_at, fork_rng, main_tensor, user_frame
from .registry import ProbeContext, not_applicable, probe


class TrainCouplingOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tol: float = Field(default=1e-6, gt=0, lt=1, description="relative change that counts as coupling")
    min_values: int = Field(
        default=8, ge=2, description="batch statistics over fewer values per channel than this count as tiny"
    )
    min_examples: int = Field(
        default=4,
        ge=2,
        description="batch statistics over fewer examples than this count as tiny, however many positions each has "
        "(the positions of one image or sequence are correlated: they do not stand in for other examples)",
    )
    strong: float = Field(
        default=0.5,
        gt=0,
        description="coupling ratio (other rows / own input) called strong when no batch-norm op explains it",
    )


class _BatchStats(TorchFunctionMode):
    """Record batch-norm calls that normalise with the batch's own statistics, with values per channel."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[int, list[int], tuple[str, int, str] | None]] = []

    def __torch_function__(self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        if getattr(func, "__name__", "") == "batch_norm" and args and isinstance(args[0], torch.Tensor):
            x = args[0]
            training = kwargs.get("training", args[5] if len(args) > 5 else False)
            if training and x.dim() >= 2 and x.shape[1]:
                self.calls.append((x.numel() // x.shape[1], list(x.shape), user_frame()))
        return func(*args, **kwargs)


def _perturbed(
    inputs: tuple[torch.Tensor, ...], axes: list[int], rows: torch.Tensor, gen: torch.Generator
) -> tuple[torch.Tensor, ...]:
    """Copies of the inputs with `rows` (on each input's batch axis) replaced by values of the same kind and scale."""
    out = []
    for x, axis in zip(inputs, axes, strict=True):
        copy = x.detach().clone()
        y = copy.movedim(axis, 0)  # a view: writing its rows writes the copy
        if x.is_floating_point():
            scale = float(x.double().std()) if x.numel() > 1 else 1.0
            noise = torch.randn(y[rows].shape, generator=gen, dtype=torch.float64) * max(scale, 1e-3)
            y[rows] = (y[rows].double() + noise.to(y.device)).to(y.dtype)
        elif x.dtype != torch.bool and x.numel():
            # Values drawn from those present: ids stay ids, and a label's ignore_index (-100) stays valid.
            values = torch.unique(x.detach().cpu())
            pick = torch.randint(0, len(values), y[rows].shape, generator=gen)
            y[rows] = values[pick].to(y.device, y.dtype)
        out.append(copy)
    return tuple(out)


def _rel(a: torch.Tensor, b: torch.Tensor) -> float:
    return float((a - b).norm() / (a.norm() + 1e-12)) if a.numel() else 0.0


def _outputs(target: Target, model: nn.Module, inputs: tuple[torch.Tensor, ...], seed: int) -> torch.Tensor:
    with fork_rng(model), torch.no_grad():
        torch.manual_seed(seed)
        return main_tensor(call_flat(target, model, clone_batch(inputs))).detach().double().cpu()


@probe(
    headline=("coupling_ratio",),
    outcomes=("train_batch_independent", "train_coupling_weak", "train_coupling_strong"),
    cost=1.5,
    options=TrainCouplingOptions,
    per_row=True,
)
def train_coupling(target: Target, ctx: ProbeContext, options: TrainCouplingOptions) -> ProbeResult:
    """Training-mode batch coupling: does changing the other rows move a row's output as much as its own input?

    Splits the batch into kept rows and other rows. In training mode (forwards reseeded alike, so
    dropout masks match) it replaces the other rows and measures how much the kept rows' outputs
    move (cross change), then replaces the kept rows themselves (own change). The ratio of the two
    says how much of a row's output comes from its batch companions: batch norm over a normal batch
    gives a small ratio; over 1-2 examples it approaches or exceeds 1. Strong coupling is reported
    when a training-mode batch norm takes its statistics over fewer than `min_values` values per
    channel (or, with no batch-norm op, when the ratio reaches `strong`). The cross change in eval
    mode is measured too, to say when coupling exists only in training; with no batch-norm op and as much
    coupling in eval mode the result is inconclusive (the dependency probe judges eval-mode coupling).
    Six forwards, no backward.
    """
    B = target.batch_size
    if B < 2:
        return not_applicable("train_coupling", "a batch of one example has no other rows to couple with")
    gen = torch.Generator().manual_seed(ctx.seed)
    kept = torch.arange(B // 2)
    others = torch.arange(B // 2, B)
    inputs, axes = target.inputs, target.input_axes
    if len(axes) != len(inputs):
        return not_applicable("train_coupling", "the inputs' batch axes could not be matched to the input tensors")
    moved_others = _perturbed(inputs, axes, others, gen)
    moved_own = _perturbed(inputs, axes, kept, gen)
    meas: dict[str, Any] = {"batch_size": B}
    stats = _BatchStats()
    gaps = _gaps(target, ctx, stats, (inputs, moved_others, moved_own), kept)
    if isinstance(gaps, ProbeResult):
        return gaps
    ratio = gaps["train_cross"] / max(gaps["train_own"], 1e-12)
    smallest = min(stats.calls, key=lambda c: c[0]) if stats.calls else None
    meas.update({k: float(f"{v:.3g}") for k, v in gaps.items()}, coupling_ratio=float(f"{ratio:.3g}"))
    meas["batch_stat_calls"] = len(stats.calls)
    meas["fewest_values_per_statistic"] = smallest[0] if smallest else None
    return _verdict(gaps, ratio, smallest, meas, options)


def _verdict(
    gaps: dict[str, float],
    ratio: float,
    smallest: tuple[int, list[int], tuple[str, int, str] | None] | None,
    meas: dict[str, Any],
    options: TrainCouplingOptions,
) -> ProbeResult:
    """Independent, coupled by tiny batch statistics (or strongly, with no batch-norm op), or weakly."""
    if gaps["train_cross"] <= options.tol:
        return _result(
            "passed",
            "train_batch_independent",
            [],
            meas,
            "in training mode each row's output depends on its own input only",
        )
    only = " only in training mode" if gaps["eval_cross"] <= options.tol else ""
    if smallest is None and gaps["eval_cross"] >= 0.9 * gaps["train_cross"]:
        # No batch statistics, and eval mode couples the rows as much: the forward mixes rows in any mode (a
        # pairwise head, a layout scramble); the dependency probe, which runs in eval mode, judges that.
        text = (
            f"the rows couple as much in eval mode as in training mode (relative change {gaps['eval_cross']:.2g} vs "
            f"{gaps['train_cross']:.2g}) and no batch norm uses batch statistics: not a training-mode effect"
        )
        return ProbeResult(name="train_coupling", status="inconclusive", measurements=meas, summary=text)
    tiny = smallest is not None and (smallest[0] < options.min_values or smallest[1][0] < options.min_examples)
    if tiny or (smallest is None and ratio >= options.strong):
        if smallest is not None:
            over = f"{smallest[0]} value(s)" if smallest[0] < options.min_values else f"{smallest[1][0]} example(s)"
            text = (
                f"in training mode batch norm normalises input {tuple(smallest[1])} with statistics over only "
                f"{over} per channel: each row's output moves {ratio:.2f}x as much when the other "
                f"rows change as when its own input does{only}"
            )
        else:
            text = (
                f"in training mode replacing the other rows moves a row's output {ratio:.2f}x as much as replacing "
                f"its own input{only}: batch statistics couple the rows"
            )
        finding = finding_at(text, smallest[2] if smallest else None, coupling_ratio=meas["coupling_ratio"])
        return _result("failed", "train_coupling_strong", [finding], meas, text)
    summary = (
        f"training-mode outputs depend weakly on the other rows{only} (ratio {ratio:.2f}; batch statistics over "
        f"{smallest[0] if smallest else 'an unknown number of'} values per channel), as batch norm does over a "
        "normal batch"
    )
    return _result("passed", "train_coupling_weak", [], meas, summary)


def _gaps(
    target: Target,
    ctx: ProbeContext,
    stats: _BatchStats,
    variants: tuple[tuple[torch.Tensor, ...], ...],
    kept: torch.Tensor,
) -> dict[str, float] | ProbeResult:
    """Relative change of the kept rows' outputs when the other rows / their own inputs change, per mode."""
    inputs, moved_others, moved_own = variants
    B = target.batch_size
    gaps: dict[str, float] = {}
    for mode in ("train", "eval"):
        model = copy_model(target).train(mode == "train")
        if mode == "train":
            with stats:  # the batch-norm calls that use batch statistics are recorded in training mode
                base = _outputs(target, model, inputs, ctx.seed)
        else:
            base = _outputs(target, model, inputs, ctx.seed)
        # The output's batch axis: where the inputs declare theirs (sequence-first models keep it), else 0.
        a = next((a for a in (target.input_axes[0], 0) if base.dim() > a and base.shape[a] == B), None)
        if a is None:
            return ProbeResult(
                name="train_coupling",
                status="inconclusive",
                summary=f"the model output {tuple(base.shape)} has no batch axis of size {B} to compare rows on",
            )

        kept_base = base.index_select(a, kept)
        cross = _outputs(target, model, moved_others, ctx.seed).index_select(a, kept)
        own = _outputs(target, model, moved_own, ctx.seed).index_select(a, kept)
        gaps[f"{mode}_cross"], gaps[f"{mode}_own"] = _rel(kept_base, cross), _rel(kept_base, own)
    return gaps


def _result(status: ProbeStatus, tag: str, findings: list[Finding], meas: dict[str, Any], summary: str) -> ProbeResult:
    return ProbeResult(
        name="train_coupling", status=status, outcomes=[tag], findings=findings, measurements=meas, summary=summary
    )
