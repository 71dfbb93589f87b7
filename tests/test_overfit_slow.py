"""overfit_one_batch: a small sigmoid net on XOR fits two rows in 200 steps but the four only after a couple
of thousand: a longer retry memorises the batch, so it needed more steps (`slow_to_fit`), not more capacity.
Four hidden units on 64 random labels stay `capacity_limited` however long they train (see test_probes_core)."""

from __future__ import annotations

import torch
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run


def test_a_net_that_fits_xor_only_with_more_steps_is_slow_not_small():
    torch.manual_seed(0)
    x = torch.tensor([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    y = torch.tensor([[0.0], [1.0], [1.0], [0.0]])
    model = nn.Sequential(nn.Linear(2, 4), nn.Sigmoid(), nn.Linear(4, 1), nn.Sigmoid())
    t = Target(model=model, batch=(x, y), loss_fn=nn.functional.mse_loss)
    t.optimizer = lambda p: torch.optim.SGD(p, lr=1.0)
    r = run("overfit_one_batch", t)
    assert r.status == "passed" and r.outcomes == ["slow_to_fit"], r.summary
    assert r.measurements["longer_steps"] > 200
