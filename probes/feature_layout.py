"""feature_layout: does the first layer read each input position's features together, or a reshape's scramble?

A `reshape` or `view` that stands in for a transpose keeps every shape valid and mixes values inside each
example, where no batch test can see it: a (B, T, C) sequence viewed as (B, C, T) for a Conv1d, image
channels viewed into the patch axis of a vision transformer. The first Linear, Conv or RNN layer's input is
captured; for a few of its tokens (one position of that layer, all its features) the gradient is taken
back to the model's first float input of three or more axes, in example 0. Token ids (integer inputs of two
or more axes) have no gradient: there the first embedding lookup's output, (B, T, D) or (B, H, W, D), stands
in for the input (a (B, H, W, D) embedding viewed as (B, D, H, W) for a Conv2d is the same scramble).
Laid out as (first axis) x (the rest), the cells a token reads form a rectangle when the layout is
intact: every row of the input (a channel, a time step) that feeds the token does so from the same set of
positions. A token whose rows read disjoint positions was assembled from a reordered memory layout.

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


def _first_layer_input(
    target: Target, model: nn.Module, inputs: Any, src: list[torch.Tensor]
) -> tuple[str, nn.Module, Any]:
    """(name, module, input) of the first Linear/Conv/RNN layer whose input depends on `src[0]` (the traced
    input; an embedding hook fills `src` during the forward when token ids are traced)."""
    seen: list[tuple[str, nn.Module, Any]] = []

    def hook_for(name: str) -> Any:
        def hook(mod: nn.Module, args: tuple[Any, ...]) -> None:
            h = args[0] if args else None
            if src and isinstance(h, torch.Tensor) and h.is_floating_point() and h.requires_grad:
                (g,) = torch.autograd.grad(h.sum(), src[0], retain_graph=True, allow_unused=True)
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


def _embedding_source(model: nn.Module, ids: torch.Tensor, src: list[torch.Tensor]) -> list[Any]:
    """Hooks making the first embedding lookup of `ids` return a leaf copy of its output, kept in `src`."""

    def hook(mod: nn.Module, args: tuple[Any, ...], out: Any) -> Any:
        if src or not args or not isinstance(out, torch.Tensor) or args[0].shape != ids.shape:
            return None
        src.append(out.detach().clone().requires_grad_(True))  # (B, T..., D)
        return src[0]

    return [m.register_forward_hook(hook) for m in model.modules() if isinstance(m, nn.Embedding)]


def _traced_input(tensors: list[torch.Tensor]) -> tuple[int, str] | None:
    """(index, kind) of the input to trace: a float tensor of 3+ axes, else token ids of 2+ axes."""
    index = next((i for i, t in enumerate(tensors) if t.is_floating_point() and t.dim() >= 3), None)
    if index is not None:
        return index, "float"
    integer = [not (t.is_floating_point() or t.is_complex()) and t.dim() >= 2 for t in tensors]
    ids = next((i for i, yes in enumerate(integer) if yes), None)
    return (ids, "ids") if ids is not None else None


def _split_features(mask: torch.Tensor, mod: nn.Module) -> str | None:
    """An embedding's positions read piecemeal: `mask` (positions..., D) marks the cells one token reads.

    A layer that mixes all its input features reads each position it touches with (nearly) all D embedding
    features; a reshape that stood in for a permute hands it one or two features from each of many positions.
    A grouped conv reads a subset by design, so it is not judged.
    """
    if getattr(mod, "groups", 1) != 1 or mask.dim() < 2 or mask.shape[-1] < 4:
        return None
    flat = mask.reshape(-1, mask.shape[-1])  # (positions, D)
    counts = flat[flat.any(1)].sum(1)  # features read, per position read
    if len(counts) < 2 or float(counts.float().median()) > 0.25 * mask.shape[-1]:
        return None
    return f"{len(counts)} embedding positions, a median {int(counts.median())} of their {mask.shape[-1]} features each"


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


_Example = tuple[int, Any, str | None]  # (token, (row, positions) pair or None, split-features text or None)


def _trace(
    tokens: torch.Tensor,
    picks: list[int],
    x: torch.Tensor,
    mod: nn.Module,
    ids: bool,
    gen: torch.Generator,
    options: FeatureLayoutOptions,
) -> tuple[list[int], int, _Example | None]:
    """Each picked token's gradient back to example 0 of `x`: (scrambled tokens, informative count, first example)."""
    scrambled: list[int] = []
    informative, example = 0, None
    for t in picks:
        v = torch.randn(tokens.shape[1], generator=gen, dtype=tokens.dtype)  # a random mix of the token's features
        (g,) = torch.autograd.grad((tokens[t] * v).sum(), x, retain_graph=True, allow_unused=True)
        if g is None:
            continue
        rows = _rows(g[0] != 0)
        if sum(len(p) for _, p in rows) < 2:
            continue
        informative += 1
        pair = _scrambled(rows, options.overlap) if len(rows) >= 2 else None
        split = _split_features(g[0] != 0, mod) if pair is None and ids else None
        if pair is not None or split is not None:
            scrambled.append(t)
            example = example or (t, pair, split)
    return scrambled, informative, example


def _finding_text(name: str, t: int, pair: Any, split: str | None) -> tuple[str, dict[str, Any]]:
    if pair is not None:
        (ra, a), (rb, b) = pair
        read = f"input row {ra} at {len(a)} position(s) and row {rb} at {len(b)}, {len(a & b)} shared"
        data = {"token": t, "rows": [ra, rb], "positions": [sorted(a)[:16], sorted(b)[:16]]}
    else:
        read, data = str(split), {"token": t}
    return f"token {t} of {name}'s input reads {read}: a reshape/view reordered axes before {name}", data


@probe(
    headline=("scrambled_tokens",),
    outcomes=("features_scrambled", "features_together"),
    requires=("model", "batch"),
    cost=0.5,
    options=FeatureLayoutOptions,
    per_row=True,
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
    traced = _traced_input(tensors)
    if traced is None:
        return not_applicable(
            "feature_layout", "no float input with three or more axes (image, sequence of features) nor token ids"
        )
    model = copy_model(target).eval()
    src: list[torch.Tensor] = []
    handles = _embedding_source(model, tensors[traced[0]], src) if traced[1] == "ids" else []
    if traced[1] == "float":
        src.append(tensors[traced[0]].detach().clone().requires_grad_(True))
        tensors[traced[0]] = src[0]
    try:
        name, mod, h = _first_layer_input(target, model, with_tensors(inputs, tensors), src)
    except LookupError as exc:
        return not_applicable("feature_layout", str(exc) + (" through an embedding" if handles else ""))
    finally:
        for handle in handles:
            handle.remove()
    x = src[0]
    axes = _token_axes(mod, h)
    if axes is None or h.shape[axes[0]] != x.shape[0]:
        return not_applicable("feature_layout", f"the input of {name or 'the first layer'} has no batch axis to align")
    row0 = h.select(axes[0], 0).movedim(axes[1] - (axes[0] < axes[1]), -1)  # (positions..., features)
    tokens = row0.reshape(-1, row0.shape[-1])  # (P, F)
    picks = torch.linspace(0, tokens.shape[0] - 1, min(options.tokens, tokens.shape[0])).round().long().unique()
    gen = torch.Generator().manual_seed(ctx.seed)
    scrambled, informative, example = _trace(tokens, picks.tolist(), x, mod, traced[1] == "ids", gen, options)
    meas = {"layer": name, "layer_input_shape": list(h.shape), "input_shape": list(x.shape)}
    meas |= {"tokens_traced": len(picks), "informative_tokens": informative, "scrambled_tokens": len(scrambled)}
    if scrambled and example is not None:
        text, data = _finding_text(name, *example)
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
