"""The loss's own floor on a batch: how low any output at all could drive it (overfit_one_batch's yardstick).

A loss whose targets are distributions (soft labels, a teacher's outputs) or whose terms pull against each
other keeps a floor above zero, so "the loss fell by 90%" cannot be asked of it. The model's first output
is made a free tensor and optimised directly against `loss_fn`: the lowest loss it reaches is the floor.
Not trusted where the loss broadcasts a float target against an output of another shape (an (N, 1)
prediction against (N,) targets): that floor is the bug itself, and a model stuck on it is stuck.

May import: torch, schemas, and the probes' `_common` helpers.
"""

from __future__ import annotations

from typing import Any

import torch

from debug_agent.schemas import Target

from ._common import clone_batch, copy_model, forward, main_tensor, with_main_tensor


def loss_floor(target: Target, steps: int = 300, lr: float = 0.1) -> float | None:
    """The lowest loss a free output reaches on the target's batch; None where it cannot be told."""
    inputs, y = clone_batch(target.batch)
    with torch.no_grad():
        out = forward(target, copy_model(target).eval(), inputs)
    try:
        start = main_tensor(out)
    except TypeError:
        return None
    if not start.is_floating_point() or _broadcast_target(start, y):
        return None
    free = start.detach().clone().requires_grad_(True)
    opt = torch.optim.Adam([free], lr=lr)
    best = float("inf")
    for _ in range(steps):
        opt.zero_grad(set_to_none=True)
        loss = target.loss_fn(with_main_tensor(out, free), y)
        if not isinstance(loss, torch.Tensor) or not loss.requires_grad or loss.numel() != 1:
            return None  # the loss does not read the output (a model that computes its own loss)
        value = float(loss.detach())
        if value != value or value in (float("inf"), float("-inf")):
            return None
        best = min(best, value)
        loss.backward()
        opt.step()
    return best


def _broadcast_target(out: torch.Tensor, y: Any) -> bool:
    """A float target of the output's size but another shape: a loss over it broadcasts, a floor would hide it."""
    return (
        isinstance(y, torch.Tensor)
        and y.is_floating_point()
        and y.shape != out.shape
        and (y.numel() == out.numel() or y.shape[:1] == out.shape[:1])
    )


def targets_unread(target: Target) -> bool:
    """Whether the loss gives the same value for other targets: a likelihood or self-supervised objective
    (a flow's NLL, dummy zero labels), whose floor is not zero and not known, so "cannot memorise the batch"
    cannot be asked of it. False when other targets cannot be built or the loss refuses them."""
    inputs, y = clone_batch(target.batch)
    if target.loss_fn is None or not isinstance(y, torch.Tensor) or not y.numel():
        return False
    other = y + 1.0 if y.is_floating_point() else y.roll(1, 0)
    if bool(torch.equal(other, y)):
        return False  # constant class ids: no other targets of the same classes to try
    with torch.no_grad():
        out = forward(target, copy_model(target).eval(), inputs)
        try:
            a, b = target.loss_fn(out, y), target.loss_fn(out, other)
        except (RuntimeError, ValueError, IndexError, TypeError):
            return False
    return isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and bool(torch.equal(a, b))
