"""Following batch rows through a model: differentiable stand-ins for the inputs (float inputs or
embedding outputs, each with its batch axis) and the output's batch axis found by perturbing one input
row at a time. Used by the dependency probe. Imports torch and the probe helpers."""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from ._common import main_tensor


class Leaves:
    """Differentiable stand-ins for the inputs: float inputs themselves, or embedding outputs for tokens.

    Each leaf keeps its batch axis: 0 for an input, and for an embedding output the axis that holds
    the rows of the token input it looked up (found by matching the lookup indices against the
    inputs, so a model that transposes tokens to sequence-first before embedding is still mapped).
    """

    def __init__(self, model: nn.Module, inputs: tuple[torch.Tensor, ...], batch: int) -> None:
        self.batch = batch
        self.inputs = tuple(x.detach().clone().requires_grad_(True) if x.is_floating_point() else x for x in inputs)
        self.leaves: list[torch.Tensor] = [x for x in self.inputs if x.requires_grad]
        self.axes: list[int] = [0] * len(self.leaves)
        self.unmapped: list[str] = []  # embedding outputs whose batch axis could not be found
        self.handles = []
        self.connected = False  # any autograd path from the output to a leaf
        self.via = "inputs"
        if not self.leaves:
            self.via = "embedding outputs"
            for mod in model.modules():
                if isinstance(mod, (nn.Embedding, nn.EmbeddingBag)):
                    self.handles.append(mod.register_forward_hook(self._hook))

    def _axis(self, idx: Any, out: torch.Tensor) -> int | None:
        """The axis of an embedding output that runs over the batch, or None when it cannot be told."""
        if isinstance(idx, torch.Tensor) and idx.dim() >= 1:
            for x in self.inputs:
                if x.is_floating_point() or x.dim() != idx.dim():
                    continue
                for a in range(idx.dim()):
                    moved = x.movedim(0, a)
                    if moved.shape == idx.shape and torch.equal(moved, idx):
                        return a
            # Same layout but other ids (an offset, a clamp): accept the axis only when the shape alone tells it.
            shaped = {
                a
                for x in self.inputs
                if not x.is_floating_point() and x.dim() == idx.dim()
                for a in range(idx.dim())
                if x.movedim(0, a).shape == idx.shape
            }
            if len(shaped) == 1:
                return shaped.pop()
        return None

    def _hook(self, mod: nn.Module, args: Any, out: torch.Tensor) -> torch.Tensor | None:
        if not isinstance(out, torch.Tensor) or out.dim() < 2 or self.batch not in out.shape[:-1]:
            return None  # e.g. a position embedding shaped (T, C): shared by every row, not a row input
        axis = self._axis(args[0] if args else None, out)
        if axis is None:
            self.unmapped.append(f"{type(mod).__name__} output {tuple(out.shape)}")
            return None
        leaf = out.detach().requires_grad_(True)
        self.leaves.append(leaf)
        self.axes.append(axis)
        return leaf

    def remove(self) -> None:
        for h in self.handles:
            h.remove()

    def row_norms(self, loss: torch.Tensor) -> torch.Tensor:
        """Per-row gradient norm of `loss` over every leaf: shape (B,)."""
        grads = torch.autograd.grad(loss, self.leaves, retain_graph=True, allow_unused=True)
        total = torch.zeros(self.batch, dtype=torch.float64)
        self.connected = self.connected or any(g is not None for g in grads)
        for g, axis in zip(grads, self.axes, strict=True):
            if g is not None:
                rows = g.detach().movedim(axis, 0).reshape(self.batch, -1)
                total += rows.double().pow(2).sum(1).cpu()  # (B,) on the CPU
        return total.sqrt()


def _perturb_row(x: torch.Tensor, row: int, gen: torch.Generator) -> torch.Tensor:
    """A copy of x with batch row `row` changed (noise for floats, other ids for tokens)."""
    x = x.clone()
    if x.is_floating_point():
        x[row] = x[row] + torch.randn(x[row].shape, generator=gen, dtype=x.dtype).to(x.device) * (
            float(x.float().std()) + 1e-3
        )
    else:
        vocab = max(int(x.max()) + 1, 2)
        x[row] = (x[row] + torch.randint(1, vocab, x[row].shape, generator=gen).to(x.device)) % vocab
    return x


def output_batch_axis(
    model: nn.Module, inputs: tuple[torch.Tensor, ...], y: torch.Tensor, batch: int, seed: int
) -> tuple[int | None, dict[str, float]]:
    """Which axis of the output runs over the batch, found by changing one input row at a time.

    Axis 0 of size B is taken as is when no other axis has size B. Otherwise each candidate axis is
    scored by how much of the change caused by perturbing input row r lands at index r along it; a
    model that transposes to sequence-first (T, B, C) scores highest on its B axis. Returns None
    when no axis answers (the probe then says so instead of guessing).
    """
    candidates = [a for a in range(y.dim()) if y.shape[a] == batch]
    if candidates == [0] or not candidates:
        return (0 if candidates else None), {}
    gen = torch.Generator().manual_seed(seed)
    scores = dict.fromkeys(candidates, 0.0)
    rows = sorted({0, batch // 2, batch - 1})
    with torch.no_grad():
        y0 = main_tensor(model(*inputs)).detach()
        for r in rows:
            moved = tuple(_perturb_row(x, r, gen) for x in inputs)
            diff = (main_tensor(model(*moved)).detach() - y0).abs().double()
            total = float(diff.sum())
            for a in candidates:
                at_r = float(diff.select(a, r).sum())
                scores[a] += (at_r / total if total > 0 else 0.0) / len(rows)
    best = max(candidates, key=lambda a: (scores[a], -a))
    shown = {str(a): round(v, 3) for a, v in scores.items()}
    if 0 in candidates and best != 0 and not (scores[best] > 0.5 and scores[best] > 2 * scores[0]):
        return 0, shown
    return (best if scores[best] > 0.5 or best == 0 else None), shown
