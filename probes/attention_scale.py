"""attention_scale: do the attention softmaxes saturate onto one key before any training?"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field
from torch.overrides import TorchFunctionMode

from debug_agent.schemas import ProbeResult, Target

from ._common import (
    called_from_library,
    clone_batch,
    copy_model,
    display_path,
    finding_at,
    forward,
    pretrained_name,
    user_frame,
)
from .registry import ProbeContext, probe

SOFTMAX = frozenset({"softmax", "_softmax"})
# Ops whose result consumes attention weights: the weights meet the values here.
MATMULS = frozenset({"matmul", "__matmul__", "__rmatmul__", "bmm", "einsum", "baddbmm"})
# Ops that pass the weights through unchanged in meaning (dropout, a mask, a dtype or layout change).
PASS_THROUGH = frozenset(
    {"dropout", "masked_fill", "to", "float", "half", "type_as", "contiguous", "view", "reshape", "transpose"}
)
# Ops that rescale q.k scores by a number: followed, so `scores * 1.0` stays an unscaled product.
SCALINGS = frozenset({"mul", "__mul__", "__rmul__", "div", "__truediv__", "true_divide", "__itruediv__", "__imul__"})
# Ops that add a tensor (a relative-position or pair bias, an additive mask) to q.k: the product's scale stays.
BIASES = frozenset({"add", "__add__", "__radd__", "__iadd__", "add_"})
MASKED = -1e4  # scores at or below this are masked-out keys, not competitors
MIN_KEYS = 4  # rows with fewer unmasked keys than this are peaked by construction (early causal rows)


class AttentionScaleOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    saturated: float = Field(
        default=0.7, gt=0.3, le=1.0, description="mean largest attention weight per row that counts as saturated"
    )
    unscaled_spread: float = Field(
        default=1.0, gt=0, description="score spread that marks scores taken straight from q.k as unscaled"
    )


@dataclass
class _Site:
    where: tuple[str, int, str] | None
    scores: torch.Tensor  # (..., Lq, Lk), the softmax input
    weights: torch.Tensor  # (..., Lq, Lk)
    direct_from_matmul: int | None  # contraction size when the scores came straight from a matmul, else None


@dataclass
class _Recorder(TorchFunctionMode):
    """Follows softmax outputs through pass-through ops; a softmax whose output reaches a matmul is attention."""

    attention: list[_Site] = field(default_factory=list)
    _pending: dict[int, tuple[torch.Tensor, _Site]] = field(default_factory=dict)
    _products: dict[int, tuple[torch.Tensor, int, float]] = field(default_factory=dict)  # (q.k, d, factor since)

    def __post_init__(self) -> None:
        super().__init__()

    def __torch_function__(self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        name = getattr(func, "__name__", "")
        tensors = [a for a in (*args, *kwargs.values()) if isinstance(a, torch.Tensor)]
        if not isinstance(out, torch.Tensor) or not tensors:
            return out
        if name in SOFTMAX and out.dim() >= 3 and _last_dim(args, kwargs, out.dim()):
            made = self._products.get(id(tensors[0]))
            # q.k reaching the softmax scaled by far less than 1/sqrt(d) (not at all, or by a factor like 1.0)
            direct = made[1] if made is not None and made[0] is tensors[0] and made[2] * made[1] ** 0.5 >= 2 else None
            where = None if called_from_library() else user_frame()
            site = _Site(where, tensors[0].detach(), out.detach(), direct)
            self._pending[id(out)] = (out, site)
        elif name in MATMULS:
            for t in tensors:
                kept = self._pending.pop(id(t), None)
                if kept is not None and kept[0] is t and all(kept[1] is not s for s in self.attention):
                    self.attention.append(kept[1])
            if len(tensors) == 2 and tensors[0].dim() >= 2:
                self._products[id(out)] = (out, int(tensors[0].shape[-1]), 1.0)
        elif name in SCALINGS and (factor := _scalar(args, kwargs)) is not None:
            made = self._products.get(id(tensors[0]))  # scores * c or scores / c: the product, rescaled
            if made is not None and made[0] is tensors[0]:
                scale = 1 / factor if "div" in name and factor else factor
                self._products[id(out)] = (out, made[1], made[2] * abs(scale))
        elif name in BIASES and len(tensors) == 2:
            for t in tensors:
                made = self._products.get(id(t))  # scores + bias: still the product, at its own scale
                if made is not None and made[0] is t:
                    self._products[id(out)] = (out, made[1], made[2])
                    break
        elif name in PASS_THROUGH:
            kept = self._pending.get(id(tensors[0]))
            if kept is not None and kept[0] is tensors[0]:
                self._pending[id(out)] = (out, kept[1])
            made = self._products.get(id(tensors[0]))  # a mask on q.k scores does not scale them
            if made is not None and made[0] is tensors[0]:
                self._products[id(out)] = (out, made[1], made[2])
        return out


def _scalar(args: tuple[Any, ...], kwargs: dict[str, Any]) -> float | None:
    """The number a tensor is multiplied or divided by (a Python number or a 0-d tensor), else None."""
    other = args[1] if len(args) > 1 else kwargs.get("other")
    if isinstance(other, torch.Tensor) and other.dim() == 0:
        return float(other)
    return float(other) if isinstance(other, (int, float)) and not isinstance(other, bool) else None


def _last_dim(args: tuple[Any, ...], kwargs: dict[str, Any], ndim: int) -> bool:
    dim = kwargs.get("dim", args[1] if len(args) > 1 else None)
    return isinstance(dim, int) and dim % ndim == ndim - 1


def _measure(site: _Site) -> tuple[float, float, int] | None:
    """(mean largest weight, mean score spread, rows counted) over rows with MIN_KEYS or more unmasked keys."""
    scores = site.scores.double().flatten(0, -2)  # (rows, Lk)
    weights = site.weights.double().flatten(0, -2)  # (rows, Lk)
    live = torch.isfinite(scores) & (scores > MASKED)
    rows = live.sum(-1) >= MIN_KEYS
    if not bool(rows.any()):
        return None
    scores, weights, live = scores[rows], weights[rows], live[rows]
    peak = weights.masked_fill(~live, 0).amax(-1).mean()
    scores = torch.where(live, scores, 0.0)  # -inf * 0 would be NaN
    mean = scores.sum(-1, keepdim=True) / live.sum(-1, keepdim=True)
    spread = (torch.where(live, scores - mean, 0.0) ** 2).sum(-1) / live.sum(-1)
    return float(peak), float(spread.sqrt().mean()), int(rows.sum())


def _where(site: _Site) -> str:
    return f"{display_path(site.where[0])}:{site.where[1]}" if site.where else "library code"


@probe(
    headline=("peak_weight", "score_spread"),
    outcomes=("attention_saturated", "attention_soft"),
    requires=("model", "batch"),
    cost=1.0,
    options=AttentionScaleOptions,
)
def attention_scale(target: Target, ctx: ProbeContext, options: AttentionScaleOptions) -> ProbeResult:
    """Measure, before any training, how peaked each attention softmax is.

    Runs one forward in eval mode and finds the attention softmaxes (a softmax over the last axis whose
    output, after dropout or masking, is multiplied with the values). With q.k scaled by 1/sqrt(d), an
    untrained model spreads its attention over the keys; unscaled scores grow with the head dimension and
    the softmax puts most of each row's weight on one key from the start (mean largest weight >=
    `saturated`), where its gradient all but vanishes. Scores that go straight from the q.k product
    (d >= 16) into the softmax with a spread of `unscaled_spread` or more count too: their spread grows as
    sqrt(d). Masked keys and rows with fewer than 4 live keys are left out. A model loaded from
    pretrained weights gets no verdict: trained heads peak on purpose (attention sinks).
    """
    start = pretrained_name(target.model)
    if start:
        return ProbeResult(
            name="attention_scale",
            status="not_applicable",
            measurements={"pretrained_from": start},
            summary=f"the model starts from pretrained weights ({start}); trained attention peaks on purpose, so "
            "the untrained-spread test does not apply",
        )
    model = copy_model(target).eval()
    recorder = _Recorder()
    with torch.no_grad(), recorder:
        forward(target, model, clone_batch(target.raw_inputs))
    measured = [(site, m) for site in recorder.attention if (m := _measure(site)) is not None]
    if not measured:
        return ProbeResult(
            name="attention_scale",
            status="not_applicable",
            summary="no attention softmax with 4 or more keys seen in forward (fused attention kernels scale by "
            "themselves)",
        )
    site, (peak, spread, rows) = max(measured, key=lambda sm: sm[1][0])
    meas: dict[str, Any] = {
        "peak_weight": round(peak, 3),
        "score_spread": round(spread, 3),
        "attention_sites": len(measured),
        "keys": int(site.scores.shape[-1]),
        "rows": rows,
    }
    return _verdict(site, peak, spread, meas, options)


def _verdict(
    site: _Site, peak: float, spread: float, meas: dict[str, Any], options: AttentionScaleOptions
) -> ProbeResult:
    """Saturated or unscaled at the most peaked site, else soft."""
    d, keys = site.direct_from_matmul, site.scores.shape[-1]
    # Scores taken straight from q.k (no scaling op between) whose spread already skews the softmax: their
    # spread grows as sqrt(d), so this is the unscaled product even before the softmax saturates.
    unscaled = d is not None and d >= 16 and spread >= options.unscaled_spread and peak >= 2.5 / keys
    if peak < options.saturated and not unscaled:
        return ProbeResult(
            name="attention_scale",
            status="passed",
            outcomes=["attention_soft"],
            measurements=meas,
            summary=f"attention spreads over the keys at initialisation: largest weight per row {peak:.2f} on "
            f"average, scores spread {spread:.2g} (at {_where(site)})",
        )
    text = (
        f"the attention softmax at {_where(site)} puts {peak:.0%} of each row's weight on one key before any "
        f"training (scores spread {spread:.3g}; uniform would be {1 / keys:.2f})"
    )
    if unscaled:
        meas["head_dim"] = d
        text += f"; the scores go from the q.k product (d = {d}) into the softmax unscaled, 1/sqrt(d) = {d**-0.5:.3g}"
    return ProbeResult(
        name="attention_scale",
        status="failed",
        outcomes=["attention_saturated"],
        measurements=meas,
        findings=[finding_at(text, site.where)],
        summary=f"attention peaked at initialisation: {peak:.0%} of the weight on one key per row"
        + (f", scores straight from q.k (d = {d})" if unscaled else ""),
    )
