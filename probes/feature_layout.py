"""feature_layout: does the first layer read each input position's features together, or a reshape's scramble?

A `reshape` or `view` that stands in for a transpose keeps every shape valid and mixes values inside each
example, where no batch test can see it: a (B, T, C) sequence viewed as (B, C, T) for a Conv1d, image
channels viewed into the patch axis of a vision transformer. The first Linear, Conv or RNN layer's input is
captured; for a few of its tokens (one position of that layer, all its features) the gradient is taken
back to the model's first float input of three or more axes, in example 0. Laid out as (first axis) x
(the rest), the cells a token reads form a rectangle when the layout is intact: every row of the input
(a channel, a time step) that feeds the token does so from the same set of positions. A token whose rows
read disjoint positions was assembled from a reordered memory layout.

May import: schemas, the probe registry and helpers.
"""

from __future__ import annotations

from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field
from torch import nn

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import clone_batch, copy_model, forward, input_tensors, with_tensors
from .registry import ProbeContext, not_applicable, probe

LAYERS = (nn.Linear, nn.modules.conv._ConvNd, nn.RNNBase)


class FeatureLayoutOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tokens: int = Field(default=16, ge=1, le=256, description="tokens of the first layer's input to trace back")
    overlap: float = Field(
        default=0.5, gt=0, le=1, description="rows of one token sharing less of their positions (Jaccard) are scrambled"
    )


class _Captured(Exception):
    """Stops the forward once the first layer's input is in hand: the rest of the model is not needed."""


def _first_layer_input(target: Target, model: nn.Module, inputs: Any, x: torch.Tensor) -> tuple[str, nn.Module, Any]:
    """(name, module, input) of the first Linear/Conv/RNN layer whose input depends on `x`."""
    seen: list[tuple[str, nn.Module, Any]] = []

    def hook_for(name: str) -> Any:
        def hook(mod: nn.Module, args: tuple[Any, ...]) -> None:
            h = args[0] if args else None
            if isinstance(h, torch.Tensor) and h.is_floating_point() and h.requires_grad:
                (g,) = torch.autograd.grad(h.sum(), x, retain_graph=True, allow_unused=True)
                if g is not None:  # it reads the input (a timestep MLP before it does not)
                    seen.append((name, mod, h))
                    raise _Captured

        return hook

    handles = [m.register_forward_pre_hook(hook_for(n)) for n, m in model.named_modules() if isinstance(m, LAYERS)]
    try:
        forward(target, model, inputs)
    except _Captured:
        pass
    finally:
        for h in handles:
            h.remove()
    if not seen:
        raise LookupError("no Linear, Conv or RNN layer reads the input")
    return seen[0]


def _token_axes(mod: nn.Module, h: torch.Tensor) -> tuple[int, int] | None:
    """(batch axis, feature axis) of a layer input; None when the layout cannot be told."""
    if isinstance(mod, nn.modules.conv._ConvNd):
        return (0, 1) if h.dim() >= 3 else None
    if isinstance(mod, nn.RNNBase):
        return ((0 if mod.batch_first else 1), h.dim() - 1) if h.dim() == 3 else None
    return (0, h.dim() - 1) if h.dim() >= 2 else None


def _rows(mask: torch.Tensor) -> list[tuple[int, set[int]]]:
    """(row, the positions it feeds the token from) for each non-empty row of an input example (first axis x rest)."""
    flat = mask.reshape(mask.shape[0], -1)
    return [(i, set(torch.nonzero(r).flatten().tolist())) for i, r in enumerate(flat) if bool(r.any())]


def _scrambled(rows: list[tuple[int, set[int]]], overlap: float) -> tuple[tuple[int, set[int]], ...] | None:
    """The first row and one that shares less than `overlap` of its positions with it (Jaccard), if any."""
    ref = rows[0]
    return next(((ref, r) for r in rows[1:] if len(ref[1] & r[1]) / len(ref[1] | r[1]) < overlap), None)


@probe(
    headline=("scrambled_tokens",),
    outcomes=("features_scrambled", "features_together"),
    requires=("model", "batch"),
    cost=0.5,
    options=FeatureLayoutOptions,
)
def feature_layout(target: Target, ctx: ProbeContext, options: FeatureLayoutOptions) -> ProbeResult:
    """Trace tokens of the first layer back to the input: does each read one position's features together?

    Applies to a float input of three or more axes (images, feature sequences, spectrograms). Fails
    when some token reads one row of the input (a channel, a time step) from other positions than
    another row: a reshape or view reordered axes before the first layer (`layout.reshape_permute`).
    Tokens that read a single input cell say nothing, and none informative is inconclusive.
    """
    inputs, _ = clone_batch(target.batch)
    tensors = input_tensors(inputs)
    index = next((i for i, t in enumerate(tensors) if t.is_floating_point() and t.dim() >= 3), None)
    if index is None:
        return not_applicable("feature_layout", "no float input with three or more axes (image, sequence of features)")
    x = tensors[index].detach().clone().requires_grad_(True)
    tensors[index] = x
    model = copy_model(target).eval()
    try:
        name, mod, h = _first_layer_input(target, model, with_tensors(inputs, tensors), x)
    except LookupError as exc:
        return not_applicable("feature_layout", str(exc))
    axes = _token_axes(mod, h)
    if axes is None or h.shape[axes[0]] != x.shape[0]:
        return not_applicable("feature_layout", f"the input of {name or 'the first layer'} has no batch axis to align")
    row0 = h.select(axes[0], 0).movedim(axes[1] - (axes[0] < axes[1]), -1)  # (positions..., features)
    tokens = row0.reshape(-1, row0.shape[-1])  # (P, F)
    picks = torch.linspace(0, tokens.shape[0] - 1, min(options.tokens, tokens.shape[0])).round().long().unique()
    gen = torch.Generator().manual_seed(ctx.seed)
    scrambled, informative, example = [], 0, None
    for t in picks.tolist():
        v = torch.randn(tokens.shape[1], generator=gen, dtype=tokens.dtype)
        (g,) = torch.autograd.grad((tokens[t] * v).sum(), x, retain_graph=True, allow_unused=True)
        if g is None:
            continue
        rows = _rows(g[0] != 0)
        if sum(len(p) for _, p in rows) < 2:
            continue
        informative += 1
        pair = _scrambled(rows, options.overlap) if len(rows) >= 2 else None
        if pair is not None:
            scrambled.append(t)
            example = example or (t, pair)
    meas = {"layer": name, "layer_input_shape": list(h.shape), "input_shape": list(x.shape)}
    meas |= {"tokens_traced": len(picks), "informative_tokens": informative, "scrambled_tokens": len(scrambled)}
    if scrambled and example is not None:
        t, ((ra, a), (rb, b)) = example
        text = (
            f"token {t} of {name}'s input reads input row {ra} at {len(a)} position(s) and row {rb} at {len(b)}, "
            f"{len(a & b)} shared: a reshape/view reordered axes before {name}"
        )
        data = {"token": t, "rows": [ra, rb], "positions": [sorted(a)[:16], sorted(b)[:16]]}
        return ProbeResult(
            name="feature_layout", status="failed", outcomes=["features_scrambled"], measurements=meas,
            findings=[Finding(text=text, data=data)],
            summary=f"{len(scrambled)} of {informative} traced tokens of {name}'s input mix positions across rows",
        )  # fmt: skip
    if not informative:
        return ProbeResult(
            name="feature_layout", status="inconclusive", outcomes=[], measurements=meas,
            summary=f"every traced token of {name}'s input reads a single input cell; no verdict",
        )  # fmt: skip
    return ProbeResult(
        name="feature_layout", status="passed", outcomes=["features_together"], measurements=meas,
        summary=f"{informative} traced tokens of {name}'s input each read one set of positions across rows",
    )  # fmt: skip
