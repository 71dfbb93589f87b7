"""data_audit on normalisation statistics that saw validation rows (a scaler fitted before the split), and on
validation labels that follow their own inputs although a model fit on train misses them (a moved relation,
not misaligned labels). Each against its healthy twin; plain torch shows what the probe claims."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run


class MinMaxNet(nn.Module):
    """Min-max scales its inputs with stored per-feature extremes, then a small MLP."""

    def __init__(self, lo: torch.Tensor, hi: torch.Tensor) -> None:
        super().__init__()
        self.register_buffer("lo", lo.clone())
        self.register_buffer("hi", hi.clone())
        self.net = nn.Sequential(nn.Linear(lo.numel(), 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (B, F) -> (B, 1)
        return self.net((x - self.lo) / (self.hi - self.lo))


def _rows(seed: int = 0) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(240, 4, generator=g) + torch.linspace(0, 3, 240)[:, None]  # drifts: later rows reach higher
    y = x.sum(1, keepdim=True) + 0.1 * torch.randn(240, 1, generator=g)
    return x[:200], y[:200], x[200:], y[200:]


def _target(model: nn.Module, xt, yt, xv, yv) -> Target:
    return Target(
        model=model, batch=(xt[:32], yt[:32]), loss_fn=nn.functional.mse_loss,
        train_data=(xt, yt), val_data=(xv, yv),
    )  # fmt: skip


@pytest.mark.parametrize("fit_on_both", [True, False])
def test_stored_extremes_that_only_validation_rows_reach(fit_on_both):
    xt, yt, xv, yv = _rows()
    fit = torch.cat([xt, xv]) if fit_on_both else xt
    r = run("data_audit", _target(MinMaxNet(fit.amin(0), fit.amax(0)), xt, yt, xv, yv))
    assert ("stats_from_val" in r.outcomes) is fit_on_both, r.summary
    # plain torch: the stored maximum is beyond every training row for some feature exactly when fit on both
    assert bool((fit.amax(0) > xt.amax(0)).any()) is fit_on_both


@pytest.mark.parametrize("fit_on_both", [True, False])
def test_features_standardised_with_both_splits(fit_on_both):
    xt, yt, xv, yv = _rows()
    ref = torch.cat([xt, xv]) if fit_on_both else xt
    mu, sd = ref.mean(0), ref.std(0)
    xt, xv = (xt - mu) / sd, (xv - mu) / sd
    r = run("data_audit", _target(nn.Linear(4, 1), xt, yt, xv, yv))
    assert ("stats_from_val" in r.outcomes) is fit_on_both, r.summary


@pytest.mark.parametrize(("shuffle", "outcome"), [(False, "val_relation_differs"), (True, "val_labels_unpredictable")])
def test_a_moved_relation_is_not_misaligned_validation_labels(shuffle, outcome):
    g = torch.Generator().manual_seed(1)
    xt, xv = torch.randn(300, 3, generator=g), torch.randn(120, 3, generator=g)
    yt = xt[:, :1] + 0.05 * torch.randn(300, 1, generator=g)
    yv = -xv[:, :1] + 0.05 * torch.randn(120, 1, generator=g)  # the sign of the relation flips on validation
    if shuffle:
        yv = yt[:120][torch.randperm(120, generator=g)]  # labels that belong to no validation input
    r = run("data_audit", _target(nn.Linear(3, 1), xt, yt, xv, yv))
    assert outcome in r.outcomes, r.summary
    # plain torch: a least-squares fit on validation alone explains its labels only when they follow its inputs
    w = torch.linalg.lstsq(xv, yv).solution
    r2 = 1 - float(((xv @ w - yv) ** 2).mean() / yv.var())
    assert (r2 > 0.9) is (not shuffle)


def test_a_stored_constant_vector_on_integer_data_is_not_an_extreme():
    """Integer-valued features: a buffer of constants that happen to be data values, some reached only by
    validation rows, is not a fitted extreme unless every element lies at or beyond the training range."""
    g = torch.Generator().manual_seed(2)
    xt = torch.randint(0, 5, (200, 3), generator=g).float()
    xv = torch.randint(0, 7, (60, 3), generator=g).float()  # validation reaches 5 and 6
    yt, yv = xt.sum(1, keepdim=True), xv.sum(1, keepdim=True)
    const = torch.tensor([2.0, 6.0, 3.0])  # 6 only in validation, 2 and 3 inside the training range
    r = run("data_audit", _target(MinMaxNet(const, const + 1), xt, yt, xv, yv))
    assert "stats_from_val" not in r.outcomes, r.summary
    assert bool((xv == 6).any()) and not bool((xt == 6).any())  # plain torch: the trap is really there
