"""split_shift: a split prepared differently (a stale cache, a one-sided transform) next to honest splits."""

from __future__ import annotations

import runpy
from pathlib import Path

import torch
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "stale_feature_cache" / "target.py"


def _target(train_x: torch.Tensor, val_x: torch.Tensor) -> Target:
    y = lambda x: (x[:, 0] > x[:, 1]).long()  # noqa: E731
    return Target(
        model=nn.Linear(train_x.shape[1], 2),
        batch=(train_x[:16], y(train_x)[:16]),
        loss_fn=nn.functional.cross_entropy,
        train_data=(train_x, y(train_x)),
        val_data=(val_x, y(val_x)),
    )


def _raw(n: int, seed: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    return 50.0 + 10.0 * torch.randn(n, 6, generator=g)


def test_stale_cache_example_is_found():
    target = Target.model_validate(runpy.run_path(str(EXAMPLE))["make_target"]())
    result = run("split_shift", target)
    assert result.status == "failed" and result.outcomes == ["splits_preprocessed_differently"], result.summary


def test_one_sided_standardisation_is_found_both_ways():
    raw_train, raw_val = _raw(512, 1), _raw(128, 2)
    z = lambda x: (x - 50.0) / 10.0  # noqa: E731
    assert run("split_shift", _target(raw_train, z(raw_val))).outcomes == ["splits_preprocessed_differently"]
    assert run("split_shift", _target(z(raw_train), raw_val)).outcomes == ["splits_preprocessed_differently"]


def test_splits_prepared_alike_pass_even_with_honest_shift():
    raw_train, raw_val = _raw(512, 1), _raw(128, 2)
    assert run("split_shift", _target(raw_train, raw_val)).outcomes == ["splits_alike"]
    drifted = raw_val + 5.0  # half a deviation of drift (a later time period): not another preprocessing
    assert run("split_shift", _target(raw_train, drifted)).outcomes == ["splits_alike"]


def test_integer_ids_and_missing_val_are_not_judged():
    ids = torch.randint(0, 100, (64, 8))
    target = Target(
        model=nn.Embedding(100, 4), batch=(ids[:8], ids[:8, 0]), train_data=(ids, ids[:, 0]), val_data=(ids, ids[:, 0])
    )
    assert run("split_shift", target).status == "not_applicable"
    x = _raw(64, 1)
    no_val = Target(model=nn.Linear(6, 2), batch=(x[:8], x[:8, 0].long()), train_data=(x, x[:, 0].long()))
    assert run("split_shift", no_val).status == "not_applicable"
