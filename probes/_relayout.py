"""Validation inputs laid out differently from the training inputs: does another reading restore the relation?

When simple models fit on train predict validation labels at chance while validation's own inputs predict
them, the relation moved between the splits. One common way it moves is a layout change in only one split's
pipeline: images stored channels-last (N, H, W, C) turned channels-first by `reshape(N, C, H, W)` where
`permute(0, 3, 1, 2)` was meant. Each reading here undoes one such reshape; if the train-fitted models
predict the re-read validation rows as well as they predict held-out training rows, the split's layout was
scrambled. Imports torch and `_label_models` only.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from ._label_models import predictability

Reading = tuple[str, Callable[[torch.Tensor], torch.Tensor]]


def readings(row: tuple[int, ...]) -> list[Reading]:
    """Re-readings of (N, *row) rows that undo a reshape where a permute/transpose was meant."""
    if len(row) == 3:
        a, b, c = row
        return [
            (f"reshape(N, {b}, {c}, {a}).permute(0, 3, 1, 2)", lambda x: x.reshape(-1, b, c, a).permute(0, 3, 1, 2)),
            (f"reshape(N, {c}, {a}, {b}).permute(0, 2, 3, 1)", lambda x: x.reshape(-1, c, a, b).permute(0, 2, 3, 1)),
        ]
    if len(row) == 2 and min(row) > 1:
        a, b = row
        return [(f"reshape(N, {b}, {a}).transpose(1, 2)", lambda x: x.reshape(-1, b, a).transpose(1, 2))]
    return []


def restoring_reading(
    train: tuple[torch.Tensor, torch.Tensor],
    val: tuple[torch.Tensor, torch.Tensor],
    row: tuple[int, ...],
    cls: bool,
    bar: float,
) -> tuple[str, float] | None:
    """The first reading of the flat validation rows under which train-fitted models reach `bar` on them,
    with that skill; None when none does."""
    (ft, yt), (fv, yv) = train, val
    for text, read in readings(row) if all(s > 1 for s in row) else []:
        relaid = read(fv.reshape(len(fv), *row)).reshape(len(fv), -1)
        skill = predictability(ft, yt, relaid, yv, cls)["val"]
        if skill >= bar:
            return text, skill
    return None
