"""data_audit: validation images turned channels-first with `reshape` (where `permute` was meant) while the
training images were permuted. Models fit on train then predict validation at chance, and one reshape undone
restores training's relation: `val_layout_scrambled`. Correctly permuted validation images, and a validation
split whose labels follow another rule (the relation moved, no layout to undo), do not get the tag."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run

H = W = 8


def _images(n: int, seed: int, rule: str = "red") -> tuple[torch.Tensor, torch.Tensor]:
    """(N, H, W, 3) channels-last images with a per-image colour cast; label: red cast above blue (or the reverse)."""
    g = torch.Generator().manual_seed(seed)
    hwc = torch.rand(n, H, W, 3, generator=g) * 0.6 + torch.rand(n, 1, 1, 3, generator=g) * 0.4
    red, blue = hwc[..., 0].mean((1, 2)), hwc[..., 2].mean((1, 2))
    return hwc, ((red > blue) if rule == "red" else (blue > red)).long()


def _target(val_layout: str) -> Target:
    tr, ytr = _images(384, seed=1)
    va, yva = _images(192, seed=2, rule="blue" if val_layout == "other_rule" else "red")
    xtr = tr.permute(0, 3, 1, 2).contiguous()  # (N, 3, H, W)
    xva = va.reshape(len(va), 3, H, W) if val_layout == "reshaped" else va.permute(0, 3, 1, 2).contiguous()
    model = nn.Sequential(
        nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2)
    )
    return Target(model=model, batch=(xtr[:32], ytr[:32]), loss_fn=nn.functional.cross_entropy,
                  train_data=(xtr, ytr), val_data=(xva, yva))  # fmt: skip


def test_validation_reshaped_instead_of_permuted_is_found():
    r = run("data_audit", _target("reshaped"))
    assert "val_layout_scrambled" in r.outcomes, (r.summary, r.measurements)
    assert any("reshape(N, 8, 8, 3).permute(0, 3, 1, 2)" in f.text for f in r.findings)


@pytest.mark.parametrize("layout", ["permuted", "other_rule"])
def test_no_layout_to_undo_gets_no_tag(layout: str):
    r = run("data_audit", _target(layout))
    assert "val_layout_scrambled" not in r.outcomes, (r.summary, r.measurements)
    assert ("val_relation_differs" in r.outcomes) == (layout == "other_rule"), r.outcomes
