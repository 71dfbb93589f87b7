"""Gradients the user's step zeroes by hand (a freeze by masking), and whether the optimizer still moves them.

A training step that freezes part of a tensor by writing zeros into its `.grad` after backward (the
rows of an embedding table other than a new token, a frozen slice of a layer) relies on the optimizer
leaving zero-gradient elements alone. Weight decay (AdamW) and momentum move them anyway. The watch
records each parameter's gradient as autograd leaves it, and around every `optimizer.step()` finds the
elements whose gradient was non-zero after backward and zero at the step, then whether the step
changed them. Elements no gradient ever reached (embedding rows absent from the batch) are not counted:
only what the user masked.

May import: torch only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from torch import nn


class MaskedGradWatch:
    """Context manager over a model and its optimizer; `moved` names tensors with masked elements that moved."""

    def __init__(self, model: nn.Module, opt: torch.optim.Optimizer) -> None:
        self.params = {n: p for n, p in model.named_parameters() if p.requires_grad}
        self.opt = opt
        self.after_backward: dict[str, torch.Tensor] = {}
        self.moved: dict[str, int] = {}  # name -> masked elements the step changed
        self.masked: dict[str, int] = {}  # name -> elements masked at a step
        self._hooks: list[Any] = []
        self._step: Callable[..., Any] = opt.step

    def _keep(self, name: str) -> Callable[[torch.Tensor], None]:
        def hook(p: torch.Tensor) -> None:
            if p.grad is not None:
                self.after_backward[name] = p.grad.detach().clone()

        return hook

    def _stepping(self, *args: Any, **kwargs: Any) -> Any:
        masks = {}
        for n, p in self.params.items():
            raw = self.after_backward.get(n)
            if raw is not None and p.grad is not None and raw.shape == p.grad.shape:
                mask = (raw != 0) & (p.grad == 0)  # autograd gave a gradient; the user's step erased it
                if bool(mask.any()):
                    masks[n] = (mask, p.detach().clone())
        out = self._step(*args, **kwargs)
        for n, (mask, before) in masks.items():
            self.masked[n] = max(self.masked.get(n, 0), int(mask.sum()))
            changed = int((self.params[n].detach()[mask] != before[mask]).sum())
            if changed:
                self.moved[n] = max(self.moved.get(n, 0), changed)
        self.after_backward.clear()
        return out

    def __enter__(self) -> MaskedGradWatch:
        self._hooks = [p.register_post_accumulate_grad_hook(self._keep(n)) for n, p in self.params.items()]
        self.opt.step = self._stepping  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        for h in self._hooks:
            h.remove()
        self.opt.step = self._step  # type: ignore[method-assign]
