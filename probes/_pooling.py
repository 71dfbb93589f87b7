"""Softmax weights summed over another axis than the one they were normalised over.

A softmax makes weights that sum to 1 along one axis; a weighted sum is an average only when it
contracts that same axis. Pooling weights `softmax(scores, dim=-1)` of shape (B, T, H), normalised over
the heads, and then summed over the tokens T (`einsum("bth,bthd->bhd")`) give a sum, not an average: it
grows with the number of tokens. Plain attention (`softmax(q @ k.T, -1) @ v`) contracts the axis it
normalised and is never flagged.

The watcher follows softmax outputs through `unsqueeze` and elementwise products, and checks the
contractions that read them: `einsum`, `matmul`/`bmm`/`@`, and `sum` of a weighted product (weights times
values that vary along the weights' axis).
Imports torch only; used by `_trace.OpRecorder`.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

import torch

PRODUCTS = frozenset({"mul", "__mul__", "__rmul__"})
MATMULS = frozenset({"matmul", "bmm", "__matmul__"})


@dataclass
class Contraction:
    op: str
    shape: list[int]
    weight_axis: int  # the axis the softmax normalised
    summed_axis: int  # the axis the weighted sum ran over
    key: int  # id of the weights, while they live


@dataclass
class WeightWatch:
    """Softmax outputs and the products made from them, each with the axis its weights sum to 1 along."""

    batch_axis: int = 0
    _tensors: weakref.WeakValueDictionary[int, torch.Tensor] = field(default_factory=weakref.WeakValueDictionary)
    _axis: dict[int, int] = field(default_factory=dict)
    _products: weakref.WeakValueDictionary[int, torch.Tensor] = field(default_factory=weakref.WeakValueDictionary)
    # (weights id, axis) of plain sums of the weights: a normaliser, so a contraction over that axis that is
    # divided by it (`w @ v / w.sum(-1, keepdim=True)`) is a weighted average after all
    _normalisers: set[tuple[int, int]] = field(default_factory=set)

    def renormalised(self, c: Contraction) -> bool:
        return (c.key, c.summed_axis) in self._normalisers

    def _get(self, x: Any) -> int | None:
        if isinstance(x, torch.Tensor) and self._tensors.get(id(x)) is x:
            return self._axis.get(id(x))
        return None

    def _put(self, x: Any, axis: int) -> None:
        if isinstance(x, torch.Tensor) and x.dim() >= 2 and x.shape[axis] > 1:
            self._tensors[id(x)] = x
            self._axis[id(x)] = axis

    def see(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any], out: Any) -> Contraction | None:
        """Follow one op; a contraction of weights over another axis than their own comes back."""
        if name == "softmax" and args and isinstance(args[0], torch.Tensor):
            dim = kwargs.get("dim", args[1] if len(args) > 1 else None)
            if isinstance(dim, int) and isinstance(out, torch.Tensor):
                self._put(out, dim % out.dim())
            return None
        if name == "unsqueeze" and (axis := self._get(args[0] if args else None)) is not None:
            d = kwargs.get("dim", args[1] if len(args) > 1 else 0) % (args[0].dim() + 1)
            self._put(out, axis + (d <= axis))
        elif name in PRODUCTS and len(args) == 2 and isinstance(out, torch.Tensor):
            self._weigh(args, out)
        elif name == "sum":
            return self._check_sum(args, kwargs)
        elif name == "einsum":
            return self._check_einsum(args)
        elif name in MATMULS and len(args) == 2:
            return self._check_matmul(name, args)
        return None

    def _weigh(self, args: tuple[Any, ...], out: torch.Tensor) -> None:
        """`w * v` with values along the weights' axis is a weighted product; `w * mask` (size 1 there) is
        still the weights themselves, and a plain sum of weights (a degree, a count) is no average."""
        w, v = args if self._get(args[0]) is not None else args[::-1]
        axis = self._get(w)
        if axis is None or not isinstance(v, torch.Tensor):
            return
        at = axis + out.dim() - w.dim()  # broadcasting aligns axes from the right
        v_at = at - (out.dim() - v.dim())
        if 0 <= v_at < v.dim() and v.shape[v_at] > 1:
            self._put(out, at)
            self._products[id(out)] = out

    def _check_sum(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Contraction | None:
        x = args[0] if args else None
        axis = self._get(x)
        dim = kwargs.get("dim", args[1] if len(args) > 1 else None)
        if axis is None or dim is None:
            return None
        dims = {d % x.dim() for d in (dim if isinstance(dim, (tuple, list)) else (dim,))}
        if self._products.get(id(x)) is not x:
            self._normalisers.update((id(x), d) for d in dims)
            return None
        return self._off_axis("sum", x, axis, dims)

    def _check_einsum(self, args: tuple[Any, ...]) -> Contraction | None:
        if not args or not isinstance(args[0], str) or "..." in args[0] or "->" not in args[0]:
            return None
        lhs, rhs = args[0].replace(" ", "").split("->")
        operands = args[1:] if len(args) > 2 or not isinstance(args[1], (list, tuple)) else tuple(args[1])
        for letters, x in zip(lhs.split(","), operands, strict=False):
            axis = self._get(x)
            if axis is None or len(letters) != x.dim():
                continue
            summed = {i for i, c in enumerate(letters) if c not in rhs}
            if found := self._off_axis("einsum", x, axis, summed):
                return found
        return None

    def _check_matmul(self, name: str, args: tuple[Any, ...]) -> Contraction | None:
        a, b = args
        if (axis := self._get(a)) is not None and a.dim() >= 2:
            return self._off_axis(name.strip("_"), a, axis, {a.dim() - 1})  # a @ v contracts a's last axis
        if (axis := self._get(b)) is not None and b.dim() >= 2:
            return self._off_axis(name.strip("_"), b, axis, {b.dim() - 2})  # x @ w contracts w's rows
        return None

    def _off_axis(self, op: str, x: torch.Tensor, axis: int, summed: set[int]) -> Contraction | None:
        """The weights' axis kept while a real (size > 1) axis other than the batch is summed."""
        if axis in summed:
            return None
        others = sorted(d for d in summed if x.shape[d] > 1 and d != self.batch_axis)
        return Contraction(op, list(x.shape), axis, others[0], id(x)) if others else None
