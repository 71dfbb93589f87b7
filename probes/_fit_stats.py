"""Normalisation statistics computed with validation rows: a scaler fitted before the split.

Two traces of it, each exact, so honest code does not produce them by chance:
- a per-feature buffer of the model (a stored minimum, maximum, mean or std, shape (F,)) whose every
  element is a data value at or beyond its feature's training range, one of them a value that only
  validation rows reach (or that equals a moment of both splits and not of train);
- features that, over training and validation rows together, have exactly mean 0 and std 1 (or min 0 and
  max 1) while the training rows alone do not: they were scaled with statistics of both splits.

Used by data_audit. May import: torch.
"""

from __future__ import annotations

import torch
from torch import nn

_EXACT = 1e-6  # relative: equal up to float rounding of the statistic


def _close(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return (a - b).abs() <= _EXACT * (1 + b.abs())


def _buffer_from_val(name: str, buf: torch.Tensor, xt: torch.Tensor, xv: torch.Tensor) -> str | None:
    """A stored extreme that only validation rows reach, or a stored moment of train+val, not of train."""
    b = buf.detach().double().cpu()
    both = torch.cat([xt, xv])
    hits_t = _close(xt, b).any(0)  # (F,): the element is a value some training row holds
    hits_v = _close(xv, b).any(0)
    # An extreme: every element at or beyond the training range of its feature (a stored min or max).
    extreme = (b <= xt.amin(0)) | (b >= xt.amax(0))
    if bool((hits_t | hits_v).all()) and bool(extreme.all()) and bool((hits_v & ~hits_t).any()):
        feats = torch.nonzero(hits_v & ~hits_t).flatten().tolist()
        return (
            f"buffer {name} stores, for feature(s) {feats[:4]}, a value that only validation rows reach: the "
            "statistic it holds was computed with validation data"
        )
    for stat, fn in (("mean", lambda a: a.mean(0)), ("std", lambda a: a.std(0))):
        if bool(_close(b, fn(both)).all()) and not bool(_close(b, fn(xt)).all()):
            return f"buffer {name} equals the {stat} over training and validation rows together, not over training"
    return None


def _scaled_with_both(xt: torch.Tensor, xv: torch.Tensor) -> str | None:
    """Features standardised (or min-max scaled) with the statistics of both splits."""
    both = torch.cat([xt, xv])
    pairs = (
        ("mean 0 and std 1", (both.mean(0), both.std(0)), (xt.mean(0), xt.std(0))),
        ("min 0 and max 1", (both.amin(0), both.amax(0)), (xt.amin(0), xt.amax(0))),
    )
    for what, (lo, hi), (t_lo, t_hi) in pairs:
        zero, one = torch.zeros_like(lo), torch.ones_like(hi)
        exact = bool((_close(lo, zero) & _close(hi, one)).all())
        train_too = bool((_close(t_lo, zero) & _close(t_hi, one)).all())
        if exact and not train_too:
            return (
                f"the features have exactly {what} over training and validation rows together, but not over the "
                "training rows alone: they were scaled with statistics fitted before the split"
            )
    return None


def stats_from_val(model: nn.Module | None, xt: torch.Tensor, xv: torch.Tensor) -> str | None:
    """What shows that normalisation statistics saw validation rows; None when nothing does.

    xt (N, F) and xv (M, F) are float64 rows as data_audit reads them.
    """
    if xt.dim() != 2 or xv.dim() != 2 or xt.shape[1] != xv.shape[1] or len(xt) < 2 or len(xv) < 2:
        return None
    for name, buf in _stat_buffers(model, xt.shape[1]):
        if text := _buffer_from_val(name, buf, xt, xv):
            return text
    return _scaled_with_both(xt, xv)


def _stat_buffers(model: nn.Module | None, features: int) -> list[tuple[str, torch.Tensor]]:
    """Float buffers of shape (F,) holding more than one value, outside norm layers (whose running
    statistics are estimated from batches and start as constants)."""
    if model is None or features < 2:
        return []
    out = []
    for mname, mod in model.named_modules():
        if isinstance(mod, nn.modules.batchnorm._NormBase):
            continue
        for bname, buf in mod.named_buffers(recurse=False):
            if buf is None or not buf.is_floating_point() or buf.dim() != 1 or buf.numel() != features:
                continue
            if bool((buf == buf[0]).all()):
                continue
            out.append((f"{mname}.{bname}" if mname else bname, buf))
    return out
