"""The hand-written backward code in a forward pass: custom autograd.Functions in the graph, gradient
reversals among them, and gradient hooks registered before forward.

Used by grad_check. May import: torch, the probe helpers.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import torch
from torch import nn


def custom_nodes(root: Any) -> Iterator[Any]:
    """Every graph node behind `root` made by a custom autograd.Function (it has a `_forward_cls`)."""
    seen, stack = set(), [root]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if getattr(node, "_forward_cls", None) is not None:
            yield node
        stack.extend(n for n, _ in getattr(node, "next_functions", ()))


def custom_functions(root: Any) -> list[str]:
    """Names of custom autograd.Functions in the graph behind `root`."""
    return list(dict.fromkeys(node._forward_cls.__name__ for node in custom_nodes(root)))


def reversals(root: Any, seed: int) -> dict[str, float]:
    """Custom Functions whose backward only multiplies the incoming gradient by a negative constant.

    That is a gradient reversal layer (domain-adversarial training): the reversed gradient is the point,
    so finite differences of the forward cannot judge it. Each node's own backward is called with a
    seeded random gradient (the node is its own ctx); anything else it returns is not a reversal.
    """
    gen = torch.Generator().manual_seed(seed)
    found: dict[str, float] = {}
    for node in custom_nodes(root):
        cls, meta = node._forward_cls, getattr(node, "_input_metadata", ())
        if len(meta) != 1:
            continue
        g = torch.randn(tuple(meta[0].shape), generator=gen, dtype=meta[0].dtype).to(meta[0].device)
        try:
            with torch.no_grad():
                out = cls.backward(node, g)
        except (RuntimeError, TypeError, AttributeError, ValueError):
            continue
        first = out[0] if isinstance(out, tuple) else out
        if isinstance(first, torch.Tensor) and first.shape == g.shape:
            c = float((first * g).sum() / (g * g).sum())
            if c < 0 and torch.allclose(first, c * g, rtol=1e-5, atol=1e-12):
                found[cls.__name__] = c
    return found


def standing_hooks(model: nn.Module) -> list[str]:
    """Gradient hooks registered before forward: on parameters, on modules, or globally."""
    from torch.nn.modules import module as nn_module

    out = [f"tensor hook on {n}" for n, p in model.named_parameters() if getattr(p, "_backward_hooks", None)]
    out += [
        f"backward hook on module {n or type(m).__name__}"
        for n, m in model.named_modules()
        if getattr(m, "_backward_hooks", None) or getattr(m, "_backward_pre_hooks", None)
    ]
    if getattr(nn_module, "_global_backward_hooks", None) or getattr(nn_module, "_global_backward_pre_hooks", None):
        out.append("a global module backward hook")
    return out
