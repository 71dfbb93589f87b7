"""batch_stats: do the batches batch norm trains on look like the data it is evaluated on?

Batch norm trains with each batch's own statistics and evaluates with running statistics, which are
averages over batches. When every batch is drawn from one group (one episode, one recording, one
class, unshuffled data), a batch's spread is far smaller than the data's: the model learns to rely on
per-batch normalisation that evaluation never gives it, and eval-mode predictions fall apart while
the training loss looks fine.

May import: schemas, the probe registry and helpers.
"""

from __future__ import annotations

from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field
from torch import nn

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import clone_batch, copy_model, forward
from ._data import training_batches
from .registry import ProbeContext, not_applicable, probe


class BatchStatsOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    batches: int = Field(default=6, ge=3, le=64, description="training batches whose statistics are compared")
    within: float = Field(
        default=0.4, gt=0, lt=1, description="within-batch share of the variance below which batches mislead"
    )


def _norm_layers(model: nn.Module) -> list[tuple[str, nn.Module]]:
    """Batch norm layers that evaluate with running statistics (the ones a batch mismatch can hurt)."""
    return [
        (name, m)
        for name, m in model.named_modules()
        if isinstance(m, nn.modules.batchnorm._BatchNorm) and m.track_running_stats
    ]


def _as_batched(data: Any) -> bool:
    """train_data given as the run's own batches (a DataLoader or a list of batches), not one (X, Y) pair:
    only those say how the run grouped its examples."""
    return not (isinstance(data, (tuple, list)) and len(data) == 2 and isinstance(data[0], torch.Tensor))


@probe(
    headline=("within_batch_share",),
    outcomes=("batch_stats_representative", "batch_stats_unrepresentative"),
    requires=("model", "batch"),
    cost=3.0,
    options=BatchStatsOptions,
)
def batch_stats(target: Target, ctx: ProbeContext, options: BatchStatsOptions) -> ProbeResult:
    """Per batch norm layer: how much of the data's variance does one training batch hold?

    Runs a copy in training mode, without gradients, over the first `batches` batches of `train_data`
    (given as batches: a DataLoader or a list of (inputs, targets)) and records each batch norm
    layer's per-channel mean and variance per batch. The within-batch share of the variance is the
    mean batch variance over that plus the variance of the batch means: about 1 - 1/B for shuffled
    batches of B examples. Below `within` the batches are unrepresentative: the running statistics
    used in eval mode differ from the batch statistics the model trained with.
    """
    model = copy_model(target).train()
    layers = _norm_layers(model)
    if not layers:
        return not_applicable("batch_stats", "no batch norm layer that keeps running statistics")
    if target.train_data is None or not _as_batched(target.train_data):
        return not_applicable("batch_stats", "needs train_data as the run's batches (a DataLoader, a list of batches)")
    with torch.random.fork_rng():
        batches = training_batches(target.batch, target.train_data, options.batches)
    sizes = {len(b[1]) if isinstance(b[1], torch.Tensor) and b[1].dim() else 0 for b in batches}
    if len(batches) < 3 or min(sizes) < 4:
        return not_applicable("batch_stats", "needs 3 or more training batches of 4 or more examples")
    stats: dict[str, list[tuple[torch.Tensor, torch.Tensor]]] = {name: [] for name, _ in layers}

    def record(name: str) -> Any:
        def hook(m: nn.Module, args: tuple[Any, ...], out: Any) -> None:
            x = args[0].detach().transpose(0, 1).reshape(args[0].shape[1], -1).double()  # (C, N * spatial)
            stats[name].append((x.mean(1), x.var(1, unbiased=False)))

        return hook

    hooks = [m.register_forward_hook(record(name)) for name, m in layers]
    try:
        with torch.no_grad():
            for inputs, _ in batches:
                forward(target, model, clone_batch(inputs))
    finally:
        for h in hooks:
            h.remove()
    return _judge({name: s for name, s in stats.items() if len(s) >= 3}, len(batches), options.within)


def _judge(stats: dict[str, list[tuple[torch.Tensor, torch.Tensor]]], n: int, within: float) -> ProbeResult:
    """The lowest within-batch share of the variance over the layers (median over each layer's channels)."""
    shares: dict[str, float] = {}
    for name, rows in stats.items():
        means = torch.stack([m for m, _ in rows])  # (K, C)
        variances = torch.stack([v for _, v in rows])  # (K, C)
        inside, between = variances.mean(0), means.var(0, unbiased=False)
        live = (inside + between) > 1e-12
        if bool(live.any()):
            shares[name] = float((inside[live] / (inside + between)[live]).median())
    if not shares:
        return ProbeResult(name="batch_stats", status="inconclusive", summary="no batch norm layer saw varied inputs")
    worst = min(shares, key=lambda k: shares[k])
    meas = {"batches": n, "within_batch_share": round(shares[worst], 4), "layer": worst, "layers_checked": len(shares)}
    if shares[worst] >= within:
        text = f"each training batch holds {shares[worst]:.0%} or more of the data's variance at every batch norm layer"
        tag = ["batch_stats_representative"]
        return ProbeResult(name="batch_stats", status="passed", outcomes=tag, measurements=meas, summary=text)
    text = (
        f"at batch norm layer {worst} one training batch holds only {shares[worst]:.0%} of the variance seen across "
        f"{n} batches: batches are drawn from narrow groups (one episode, one class, unshuffled data), so the "
        "running statistics used in eval mode differ from the batch statistics the model trained with"
    )
    return ProbeResult(
        name="batch_stats",
        status="failed",
        outcomes=["batch_stats_unrepresentative"],
        findings=[Finding(text=text, data={"layer": worst, "share": meas["within_batch_share"]})],
        measurements=meas,
        summary=text.split(":")[0],
    )
