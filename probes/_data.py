"""Reading train_data / val_data as (X, Y) rows, whatever form the target protocol allows.

May import: nothing of ours (torch only).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import torch


class DataNotUsable(ValueError):
    """train_data/val_data hold something the probes cannot read as (x, y) examples; says why."""


def _pair(item: Any, where: str) -> tuple[Any, Any]:
    if isinstance(item, (tuple, list)) and len(item) >= 2:
        return item[0], item[1]
    raise DataNotUsable(
        f"{where} yields {type(item).__name__} items, not (x, y) pairs; give train_data/val_data as "
        "(X, Y), a Dataset of (x, y) or an iterable of (inputs, targets) batches"
    )


# Keyword inputs that carry the features of a Hugging Face-style model, in order of preference.
_FEATURE_KEYS = ("pixel_values", "input_values", "input_features", "inputs_embeds", "input_ids")


def _features(x: Mapping) -> Any:
    """The feature tensor of keyword inputs: a known feature key, else the only float tensor."""
    for key in _FEATURE_KEYS:
        if isinstance(x.get(key), torch.Tensor):
            return x[key]
    floats = [v for v in x.values() if isinstance(v, torch.Tensor) and v.is_floating_point()]
    if len(floats) == 1:
        return floats[0]
    raise DataNotUsable(f"data holds keyword inputs ({', '.join(map(str, x))}) with no one feature tensor to read")


def _rows(x: Any) -> torch.Tensor:
    if isinstance(x, Mapping):
        x = _features(x)
    try:
        return torch.as_tensor(x)
    except (TypeError, ValueError, RuntimeError) as exc:
        raise DataNotUsable(f"data holds {type(x).__name__} values that are not tensors or arrays") from exc


def _batches(data: Any) -> bool:
    """A plain list of (inputs, targets) batches: its first item's x (the feature tensor of keyword inputs)
    has 2+ axes and shares its first with y."""
    if not isinstance(data, (list, tuple)) or not data or not isinstance(data[0], (list, tuple)) or len(data[0]) < 2:
        return False
    x, y = data[0][0], data[0][1]
    if isinstance(x, Mapping):
        try:
            x = _features(x)
        except DataNotUsable:
            return False
    if not (isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor)):
        return False
    return x.dim() >= 2 and y.dim() >= 1 and len(x) == len(y)


def data_rows(data: Any, limit: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Up to `limit` examples (X, Y) from train_data/val_data, whatever form the protocol allows.

    Accepts an (X, Y) pair of tensors/arrays, a Dataset (indexable, sized) of (x, y) examples, and
    a DataLoader or any other iterable of (inputs, targets) batches (rows split along axis 0).
    """
    if isinstance(data, (tuple, list)) and len(data) == 2 and not isinstance(data[0], (tuple, list)):
        x, y = _rows(data[0]), _rows(data[1])
        if x.dim() and y.dim() and len(x) == len(y):
            return x[:limit], y[:limit]
    xs: list[torch.Tensor] = []
    ys: list[torch.Tensor] = []
    indexable = hasattr(data, "__getitem__") and hasattr(data, "__len__") and not isinstance(data, Mapping)
    if indexable and not _batches(data):
        for i in range(min(len(data), limit)):
            x, y = _pair(data[i], "the dataset")
            xs.append(_rows(x)[None])
            ys.append(_rows(y).reshape(1, *_rows(y).shape))
    elif hasattr(data, "__iter__"):
        n = 0
        for batch in data:
            x, y = _pair(batch, "the data iterable")
            xb, yb = _rows(x), _rows(y)
            if xb.dim() == 0 or yb.dim() == 0 or len(xb) != len(yb):
                raise DataNotUsable("batches from the data iterable must be (inputs, targets) with the same first axis")
            xs.append(xb[: limit - n])
            ys.append(yb[: limit - n])
            n += len(xs[-1])
            if n >= limit:
                break
    else:
        raise DataNotUsable(f"train_data/val_data of type {type(data).__name__} is not a Dataset, pair or iterable")
    if not xs:
        raise DataNotUsable("the data holds no examples")
    try:
        return torch.cat(xs), torch.cat(ys)
    except RuntimeError as exc:
        raise DataNotUsable(f"examples differ in shape and cannot be stacked ({exc})") from exc


def _first_tensor(x: Any) -> torch.Tensor | None:
    if isinstance(x, torch.Tensor):
        return x
    values = x.values() if isinstance(x, Mapping) else x if isinstance(x, (list, tuple)) else ()
    return next((t for t in map(_first_tensor, values) if t is not None), None)


def training_batches(batch: Any, data: Any, limit: int) -> list[Any]:
    """Up to `limit` batches shaped like `batch` from train_data, in order; [] when it holds none.

    A list of (inputs, targets) batches or a DataLoader is read as it comes; an (X, Y) pair of tensors is
    cut into consecutive batches of `batch`'s size (plain tensor inputs only). Anything else gives [], and
    the caller keeps to its one batch.
    """
    if data is None:
        return []
    ref = _first_tensor(batch[0])
    if ref is None:
        return []
    if isinstance(data, (tuple, list)) and len(data) == 2 and isinstance(data[0], torch.Tensor):
        x, y = data
        if not (isinstance(batch[0], torch.Tensor) and isinstance(y, torch.Tensor) and len(x) == len(y) and x.dim()):
            return []
        size = max(1, len(batch[0]))
        return [(x[i : i + size], y[i : i + size]) for i in range(0, min(len(x), size * limit), size)]
    is_loader = isinstance(data, torch.utils.data.DataLoader)
    if not (is_loader or isinstance(data, (tuple, list))):
        return []
    out: list[Any] = []
    for item in data:
        first = _first_tensor(item[0]) if isinstance(item, (tuple, list)) and len(item) >= 2 else None
        if first is None or first.dim() != ref.dim():  # a list of single examples, not of batches
            return []
        out.append(item)
        if len(out) >= limit:
            break
    return out


def index_dtype(data: Any) -> bool:
    """Inputs stored as int16/int32/int64 (ids for an embedding); uint8 pixels still count as magnitudes."""
    return data_rows(data, 1)[0].dtype in (torch.int16, torch.int32, torch.int64)


# Varying features whose sizes (root mean square) differ by SPREAD times, the largest at SPREAD_FLOOR or more.
SPREAD, SPREAD_FLOOR = 20.0, 10.0


def scale_check(xt: torch.Tensor, mean: torch.Tensor, std: torch.Tensor, scale: float) -> list[tuple[str, str]]:
    """(outcome, finding text) for constant features and features far from zero mean / unit variance."""
    out: list[tuple[str, str]] = []
    constant = int((std == 0).sum())
    if constant == xt.shape[1] and len(xt) > 1:
        # Every row is the same input (all zeros after an integer division, say): nothing else is measurable.
        return [("inputs_constant", f"all {constant} input features are constant: every example is the same input")]
    if constant and xt.shape[1] <= 256:
        out.append(("constant_features", f"{constant} of {xt.shape[1]} features never vary"))
    size = (mean.pow(2) + std.pow(2)).sqrt()  # (d,) root mean square of each feature
    varying = size[std > 0]
    if float(mean.abs().max()) > scale or float(std.max()) > scale:
        worst = int(torch.maximum(mean.abs(), std).argmax())
        text = f"feature {worst} has mean {float(mean[worst]):.4g} and std {float(std[worst]):.4g}: "
        out.append(("features_unscaled", text + "inputs are not standardised"))
    elif len(varying) > 1 and float(varying.max()) >= max(SPREAD_FLOOR, SPREAD * float(varying.min())):
        # A feature in the tens beside one in the ones or below: one step size cannot suit both
        big, small = int(torch.where(std > 0, size, 0.0).argmax()), int(torch.where(std > 0, size, size.max()).argmin())
        text = (f"feature {big} has mean {float(mean[big]):.4g} and std {float(std[big]):.4g} while feature {small} "
                f"has mean {float(mean[small]):.4g} and std {float(std[small]):.4g}: inputs on scales "
                f"{float(size[big] / size[small]):.0f}x apart are not standardised")  # fmt: skip
        out.append(("features_unscaled", text))
    else:
        out.append(("features_scaled", ""))
    return out
