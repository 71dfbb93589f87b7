"""Which label does a loss pair with each output position? Read from the loss's gradient on all-zero
logits: for cross-entropy it is (1/V - onehot(label)) at each position, so its most negative entry
names the label. Works for a loss computed from the model's output and for a loss the model computes
itself from labels among its inputs (the logits are then replaced where they are made). Used by
label_offset and padding_audit. Imports torch and the probe helpers.
"""

from __future__ import annotations

from typing import Any

import torch

from debug_agent.schemas import Target

from ._common import call_flat, clone_batch, with_main_tensor


def _with_logits(out: Any, leaf: torch.Tensor) -> Any:
    """The model's output structure with its logits replaced by `leaf` (output objects keep their class)."""
    return with_main_tensor(out, leaf)


def logits_of(out: Any) -> torch.Tensor | None:
    if isinstance(out, torch.Tensor):
        return out
    if isinstance(out, dict):
        return out.get("logits") if isinstance(out.get("logits"), torch.Tensor) else None
    if isinstance(out, (tuple, list)) and out and isinstance(out[0], torch.Tensor):
        return out[0]
    logits = getattr(out, "logits", None)  # an output object (dataclass, ModelOutput-like)
    return logits if isinstance(logits, torch.Tensor) else None


def _loss_on_zero_logits(target: Target, out: Any, logits: torch.Tensor) -> tuple[Any, torch.Tensor] | None:
    """The user's loss with the logits replaced by an all-zero leaf, and that leaf (None if they cannot be)."""
    leaf = torch.zeros_like(logits, dtype=torch.float32, device=logits.device).requires_grad_(True)
    fed = _with_logits(out, leaf)
    if fed is None:
        return None
    with torch.enable_grad():
        return target.loss_fn(fed, clone_batch(target.targets)), leaf


def paired_labels(target: Target, out: Any, logits: torch.Tensor) -> torch.Tensor | None:
    """(B, T) label index the loss pairs with each output position (-1 where none), or None if not CE-like."""
    fed = _loss_on_zero_logits(target, out, logits)
    return _labels_from_grad(*fed) if fed is not None else None


def loss_denominator(target: Target, out: Any, logits: torch.Tensor) -> float | None:
    """The count a cross-entropy-like loss divides by, read from its gradient on zero logits: at each position
    it trains, (max - min) of the gradient row is 1/N (CE: 1/V - (1/V - 1); NLL on log-probs: 0 - (-1)).
    The median over those positions (a class weight moves single positions); None if not CE-like."""
    fed = _loss_on_zero_logits(target, out, logits)
    if fed is None:
        return None
    loss, leaf = fed
    if not isinstance(loss, torch.Tensor) or not loss.requires_grad or loss.dim() != 0:
        return None
    (g,) = torch.autograd.grad(loss, leaf, allow_unused=True)
    if g is None:
        return None
    spread = (g.detach().double().amax(-1) - g.detach().double().amin(-1)).flatten()  # (B*T,)
    used = spread[spread > 1e-12]
    return float(1.0 / used.median()) if used.numel() else None


def paired_labels_inside(target: Target, model: torch.nn.Module, shape: tuple[int, ...]) -> torch.Tensor | None:
    """The same pairing when the model computes the loss itself (labels among its inputs, as Hugging Face
    models take `labels=` and shift inside): the logits are replaced by a zero leaf where they are made,
    in the last sub-module whose output has the logits' shape, and the loss is read as the model returns it."""
    made: list[str] = []
    modules = dict(model.named_modules())

    def spot(name: str) -> Any:
        def hook(mod: torch.nn.Module, args: Any, out: Any) -> None:
            if isinstance(out, torch.Tensor) and tuple(out.shape) == shape:
                made.append(name)

        return hook

    handles = [m.register_forward_hook(spot(n)) for n, m in modules.items() if n]
    try:
        with torch.no_grad():
            call_flat(target, model, clone_batch(target.inputs))
    finally:
        for h in handles:
            h.remove()
    if not made:
        return None
    leaf = torch.zeros(shape, dtype=torch.float32).requires_grad_(True)

    def swap(mod: torch.nn.Module, args: Any, out: torch.Tensor) -> torch.Tensor:
        return leaf.to(out.device)

    handle = modules[made[-1]].register_forward_hook(swap)
    try:
        with torch.enable_grad():
            loss = target.loss_fn(call_flat(target, model, clone_batch(target.inputs)), clone_batch(target.targets))
    finally:
        handle.remove()
    return _labels_from_grad(loss, leaf)


def _labels_from_grad(loss: Any, leaf: torch.Tensor) -> torch.Tensor | None:
    """For cross-entropy on all-zero logits the gradient is (1/V - onehot(label)) per position: its argmin."""
    if not isinstance(loss, torch.Tensor) or not loss.requires_grad:
        return None
    (g,) = torch.autograd.grad(loss, leaf, allow_unused=True)
    if g is None:
        return None
    g = g.detach().double().cpu()
    scale = g.abs().amax(-1)
    used = scale > 1e-12
    ce_like = (g.sum(-1).abs() <= 1e-6 * scale.clamp_min(1e-30)) & (g.amin(-1) < -0.5 * scale)
    if not bool(used.any()) or bool((used & ~ce_like).any()):
        return None
    return torch.where(used, g.argmin(-1), torch.full_like(scale, -1, dtype=torch.long))
