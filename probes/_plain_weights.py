"""Plain tensors used as weights: a module attribute that is a float tensor, neither a Parameter nor a buffer,
multiplied with the activations in forward (`q @ self.keys.t()`): no optimizer can ever train it.

Used by step_audit. May import: torch, the probe helpers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn
from torch.overrides import TorchFunctionMode

from ._common import input_tensors, storage_key

_ELEMENTWISE = {"mul", "rmul", "mul_"}
_PRODUCTS = {"matmul", "mm", "bmm", "linear", "einsum", "addmm", "baddbmm", "conv1d", "conv2d", "conv3d", "rmatmul"}


def plain_tensors(model: nn.Module) -> dict[int, tuple[str, nn.Module, str]]:
    """Storage -> (display name, owner, attribute) of each float tensor attribute (>= 2-D, not all one value)
    that nn.Module does not register. A constant (a zero state) is left out: it holds no learned value, and so
    is a view of a registered tensor (`self.w = self.proj.weight.data`): the optimizer trains its storage."""
    registered = {storage_key(t) for t in [*model.parameters(), *model.buffers()]}
    out: dict[int, tuple[str, nn.Module, str]] = {}
    for mname, mod in model.named_modules():
        for attr, val in vars(mod).items():
            if not isinstance(val, torch.Tensor) or isinstance(val, nn.Parameter) or not val.is_floating_point():
                continue
            if val.dim() < 2 or val.numel() < 4 or bool((val == val.reshape(-1)[0]).all()):
                continue
            key = storage_key(val)
            if key is not None and key not in registered:
                out[key] = (f"{mname + '.' if mname else ''}{attr}", mod, attr)
    return out


@dataclass
class PlainWeightWatch(TorchFunctionMode):
    """Notes the plain tensor attributes that meet a gradient-carrying operand in a product (matmul, linear, conv)."""

    model: nn.Module
    original: nn.Module | None = None  # the user's model: a deep copy loses a view's tie to a parameter
    plain: dict[int, tuple[str, nn.Module, str]] = field(default_factory=dict)
    used: list[str] = field(default_factory=list)
    zero_uses: dict[int, int] = field(default_factory=dict)  # storage of an all-zero factor -> products it was in

    def __post_init__(self) -> None:
        super().__init__()
        self.plain = plain_tensors(self.model)
        if self.original is not None:  # judged on the user's own objects, read only
            untied = {name for name, _, _ in plain_tensors(self.original).values()}
            self.plain = {k: v for k, v in self.plain.items() if v[0] in untied}
        self._before = {key: getattr(mod, attr) for key, (_, mod, attr) in self.plain.items()}

    def __torch_function__(self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None) -> Any:
        out = func(*args, **(kwargs or {}))
        if getattr(func, "__name__", "").strip("_") in _ELEMENTWISE:
            self._zero_factors(input_tensors(args))
        if self.plain and getattr(func, "__name__", "").strip("_") in _PRODUCTS:
            ts = input_tensors(args) + input_tensors(kwargs or {})
            if any(t.requires_grad for t in ts):
                for t in ts:
                    hit = self.plain.get(storage_key(t) or -1) if not t.requires_grad else None
                    if hit and hit[0] not in self.used:
                        self.used.append(hit[0])
        return out

    def _zero_factors(self, ts: list[torch.Tensor]) -> None:
        """Count elementwise products of a gradient-carrying value with an all-zero tensor that has no gradient."""
        if len(ts) != 2 or not any(t.requires_grad for t in ts):
            return
        rows = max(t.shape[0] if t.dim() else 1 for t in ts)
        for t in ts:
            # A weight is shared by the rows (leading size 1 against a batch); a zero state has one row per example.
            if t.requires_grad or not t.is_floating_point() or t.dim() < 2 or t.shape[0] != 1 or rows == 1:
                continue
            if not bool(t.any()):
                key = storage_key(t)
                if key is not None:
                    self.zero_uses[key] = self.zero_uses.get(key, 0) + 1

    def zero_weights(self) -> list[str]:
        """Plain tensor attributes, all zero, that forward multiplied elementwise with the activations at least
        twice in one call (a weight used at each time step): peephole weights that `init_hidden` re-creates as
        zeros on every forward. That term is always 0 and nothing trains it. A zero initial state has a row per
        example, so it is never taken for a weight."""
        registered = {storage_key(t) for t in [*self.model.parameters(), *self.model.buffers()]}
        out = []
        for mname, mod in self.model.named_modules():
            for attr, val in vars(mod).items():
                if not isinstance(val, torch.Tensor) or isinstance(val, nn.Parameter) or val.requires_grad:
                    continue
                key = storage_key(val) if val.is_floating_point() else None
                if key is not None and key not in registered and self.zero_uses.get(key, 0) >= 2:
                    out.append(f"{mname + '.' if mname else ''}{attr}")
        return out

    def weights(self) -> list[str]:
        """The attributes read as weights that forward left in place (state that forward reassigns is a carry)."""
        kept = {name for key, (name, mod, attr) in self.plain.items() if getattr(mod, attr) is self._before[key]}
        return [n for n in self.used if n in kept]
