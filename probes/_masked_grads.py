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
        self._masks: dict[str, tuple[torch.Tensor, torch.Tensor]] = {}

    def _keep(self, name: str) -> Callable[[torch.Tensor], None]:
        def hook(p: torch.Tensor) -> None:
            if p.grad is not None:
                self.after_backward[name] = p.grad.detach().clone()

        return hook

    def _before_step(self, *_: Any) -> None:
        self._masks = {}
        for n, p in self.params.items():
            raw = self.after_backward.get(n)
            if raw is not None and p.grad is not None and raw.shape == p.grad.shape:
                mask = (raw != 0) & (p.grad == 0)  # autograd gave a gradient; the user's step erased it
                if bool(mask.any()):
                    self._masks[n] = (mask, p.detach().clone())

    def _after_step(self, *_: Any) -> None:
        for n, (mask, before) in self._masks.items():
            self.masked[n] = max(self.masked.get(n, 0), int(mask.sum()))
            changed = int((self.params[n].detach()[mask] != before[mask]).sum())
            if changed:
                self.moved[n] = max(self.moved.get(n, 0), changed)
        self.after_backward.clear()

    def __enter__(self) -> MaskedGradWatch:
        self._hooks = [p.register_post_accumulate_grad_hook(self._keep(n)) for n, p in self.params.items()]
        # The optimizer's own hooks, not a replaced .step: an LR scheduler wraps .step by its __func__.
        if hasattr(self.opt, "register_step_pre_hook"):
            self._hooks += [self.opt.register_step_pre_hook(self._before_step)]
            self._hooks += [self.opt.register_step_post_hook(self._after_step)]
        return self

    def __exit__(self, *exc: object) -> None:
        for h in self._hooks:
            h.remove()
