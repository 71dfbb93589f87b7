"""grad_spikes: one training batch with a few far-out rows gives a gradient a hundred times the steps before it;
the same walk over clean batches, or with the gradient norm clipped in the user's train_step, stays even."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run


def _batches(stray: bool) -> list[tuple[torch.Tensor, torch.Tensor]]:
    g = torch.Generator().manual_seed(0)
    out = []
    for i in range(60):
        x = torch.randn(32, 4, generator=g)
        if stray and i == 55:
            x[:2] = 40.0  # two rows far out in the tails
        out.append((x, x.sum(1, keepdim=True)))
    return out


def _clipped_step(model: nn.Module, batch: tuple, opt: torch.optim.Optimizer, loss_fn) -> float:
    opt.zero_grad()
    loss = loss_fn(model(batch[0]), batch[1])
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    return loss.item()


def _target(style: str) -> Target:
    torch.manual_seed(0)
    data = _batches(stray=style != "clean")
    model = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
    t = Target(model=model, batch=data[0], loss_fn=nn.functional.mse_loss, train_data=data)
    t.optimizer = lambda p: torch.optim.Adam(p, lr=1e-2)
    if style == "clipped":
        t.train_step = _clipped_step
    return t


def test_a_batch_with_far_out_rows_is_a_spike():
    r = run("grad_spikes", _target("stray"))
    assert r.status == "failed" and r.outcomes == ["grad_spike_batches"], r.summary
    assert r.measurements["spike_step"] == 55


@pytest.mark.parametrize("style", ["clean", "clipped"])
def test_clean_or_clipped_walks_are_even(style: str):
    r = run("grad_spikes", _target(style))
    assert r.status == "passed" and r.outcomes == ["grad_norms_even"], (r.summary, r.measurements)
