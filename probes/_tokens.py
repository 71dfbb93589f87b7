"""Label checks on integer token inputs, where ids are names, not magnitudes: token frequencies per
row, and a single-position lookup table. Used by the data_audit probe. Imports torch only."""

from __future__ import annotations

import torch


def bag_of_tokens(ids: torch.Tensor, buckets: int) -> torch.Tensor:
    """Token-id rows (n, T) as token frequencies per row (n, buckets); ids beyond `buckets` share a bucket."""
    ids = ids.long().clamp_min(0) % buckets
    counts = torch.zeros(len(ids), buckets, dtype=torch.float64).scatter_add_(1, ids, torch.ones_like(ids).double())
    return counts / max(ids.shape[1], 1)


def position_lookup(
    ids: torch.Tensor, y: torch.Tensor, ids_v: torch.Tensor | None, y_v: torch.Tensor | None
) -> dict[str, float]:
    """Held-out accuracy of the best single-position lookup table (token at position p -> majority label):
    the relation bag-of-tokens cannot see, a label set by one position (e.g. the first token). Tables are
    fitted on the first half of train and scored on the second half (and, fitted on all of train, on val)."""
    ids = ids.long().clamp_min(0)[:, :128]
    buckets = int(min(int(ids.max()) + 1, 512))
    ids = ids % buckets
    offset = int(y.min())
    y = y.long() - offset
    classes = int(y.max()) + 1

    def best(fit_x: torch.Tensor, fit_y: torch.Tensor, test_x: torch.Tensor, test_y: torch.Tensor) -> float:
        width = min(fit_x.shape[1], test_x.shape[1])
        pos = torch.arange(width)
        flat = (pos[None] * buckets + fit_x[:, :width]) * classes + fit_y[:, None]
        table = torch.bincount(flat.reshape(-1), minlength=width * buckets * classes).view(width, buckets, classes)
        votes = table[pos[None], test_x[:, :width]]  # (n_test, width, classes)
        majority = torch.bincount(fit_y, minlength=classes).argmax()
        pred = torch.where(votes.sum(-1) > 0, votes.argmax(-1), majority)
        return float((pred == test_y[:, None]).double().mean(0).max())

    half = len(ids) // 2
    out = {"train_heldout": best(ids[:half], y[:half], ids[half:], y[half:])}
    if ids_v is not None and y_v is not None and y_v.dim() == 1:
        v = ids_v.long().clamp_min(0)[:, :128] % buckets
        yv = y_v.long() - offset  # a class unseen in train never matches a prediction
        out["val"] = best(ids, y, v, yv)
    return out
