"""split_shift: were the training and validation inputs prepared the same way?

A cached, preprocessed copy of one split that outlived a change to the pipeline (a normalisation step
added since), or a transform applied to one split only, leaves the two splits on different scales: the
validation features sit many training standard deviations away, or spread several times wider or
narrower. Ordinary distribution shift between honest splits moves a feature by a fraction of its spread.

May import: schemas, the probe registry and helpers.
"""

from __future__ import annotations

from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import Finding, ProbeResult, Target

from ._data import DataNotUsable, data_rows, index_dtype
from .registry import ProbeContext, not_applicable, probe


class SplitShiftOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    max_examples: int = Field(default=2000, ge=8, le=100_000, description="examples read from each split")
    shift: float = Field(default=3.0, gt=0, description="mean shift, in training standard deviations, that counts")
    spread: float = Field(default=4.0, gt=1, description="ratio of standard deviations that counts")
    share: float = Field(default=0.5, gt=0, le=1, description="share of varying features that must move")


def _rows(data: Any, limit: int) -> torch.Tensor:
    x, _ = data_rows(data, limit)
    return x.reshape(len(x), -1).double()


@probe(
    headline=("moved_share",),
    outcomes=("splits_preprocessed_differently", "splits_alike"),
    requires=("model", "train_data", "val_data"),
    cost=0.3,
    options=SplitShiftOptions,
)
def split_shift(target: Target, ctx: ProbeContext, options: SplitShiftOptions) -> ProbeResult:
    """Train and val inputs on the same scale? A split prepared differently (stale cache, one-sided transform).

    Per input feature that varies in both splits: the validation mean's distance from the training mean
    in training standard deviations, and the ratio of the two standard deviations. When at least `share`
    of the features moved by more than `shift` deviations or spread `spread` times wider or narrower,
    the splits were `splits_preprocessed_differently`; else `splits_alike`. Not for integer ids.
    """
    try:
        if index_dtype(target.train_data) or index_dtype(target.val_data):
            return not_applicable("split_shift", "the inputs are integer ids: their values are not on a scale")
        xt = _rows(target.train_data, options.max_examples)
        xv = _rows(target.val_data, options.max_examples)
    except DataNotUsable as exc:
        return not_applicable("split_shift", str(exc))
    if xt.shape[1] != xv.shape[1] or len(xt) < 8 or len(xv) < 8:
        return not_applicable("split_shift", "the splits need 8 rows each and the same features")
    st, sv = xt.std(0), xv.std(0)
    varying = (st > 1e-8) & (sv > 1e-8)
    if not bool(varying.any()):
        return not_applicable("split_shift", "no feature varies in both splits")
    shift = (xv.mean(0) - xt.mean(0)).abs()[varying] / st[varying]  # (F',) in training deviations
    ratio = torch.maximum(sv[varying] / st[varying], st[varying] / sv[varying])
    moved = (shift > options.shift) | (ratio > options.spread)
    share = float(moved.double().mean())
    meas: dict[str, Any] = {
        "features": int(varying.sum()),
        "moved_share": round(share, 4),
        "median_shift_sd": round(float(shift.median()), 3),
        "median_spread_ratio": round(float(ratio.median()), 3),
    }
    if share >= options.share:
        text = (
            f"{int(moved.sum())} of {int(varying.sum())} features sit on another scale in val than in train "
            f"(median shift {meas['median_shift_sd']:.1f} training deviations, "
            f"spread ratio {meas['median_spread_ratio']:.1f}x): "
            "the splits were not prepared the same way"
        )
        return ProbeResult(
            name="split_shift", status="failed", outcomes=["splits_preprocessed_differently"], measurements=meas,
            findings=[Finding(text=text)], summary=text.split(":")[0],
        )  # fmt: skip
    summary = f"train and val features on one scale ({share:.0%} of features moved)"
    return ProbeResult(
        name="split_shift", status="passed", outcomes=["splits_alike"], measurements=meas, summary=summary
    )
