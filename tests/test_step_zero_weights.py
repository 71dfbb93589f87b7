"""step_audit: weights that forward re-creates as zero tensors on every call (peephole weights built in
`init_hidden`) are untrainable dead terms; the same weights as parameters, or a zero initial state, are fine."""

from __future__ import annotations

import pytest
import torch
from torch import nn

import debug_agent.probes as P
from debug_agent.isolation import probe_registry
from debug_agent.schemas import ProbeResult, Target


class PeepholeCell(nn.Module):
    def __init__(self, registered: bool, dim: int = 6) -> None:
        super().__init__()
        self.x2g, self.h2g = nn.Linear(dim, 3 * dim), nn.Linear(dim, 3 * dim, bias=False)
        self.registered, self.dim = registered, dim
        if registered:
            self.w_peep = nn.Parameter(torch.zeros(1, dim))  # healthy: a zero-initialised parameter

    def init_hidden(self, batch: int) -> torch.Tensor:
        if not self.registered:
            self.w_peep = torch.zeros(1, self.dim)  # BUG: a plain tensor, re-created as zeros every forward
        self.c0 = torch.zeros(batch, self.dim)  # a zero initial state: read once, then replaced
        return self.c0

    def forward(self, seq: torch.Tensor) -> torch.Tensor:  # seq: (B, T, D)
        c = self.init_hidden(seq.shape[0])
        h = torch.zeros_like(c)
        for t in range(seq.shape[1]):
            i, f, g = (self.x2g(seq[:, t]) + self.h2g(h)).chunk(3, -1)  # (B, D) each
            c = torch.sigmoid(f + c * self.w_peep) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.tanh(c)
        return h.sum(-1)  # (B,)


def _run(registered: bool) -> ProbeResult:
    probe_registry()
    torch.manual_seed(0)
    x = torch.randn(16, 5, 6)
    target = Target(model=PeepholeCell(registered), batch=(x, x.mean((1, 2))), loss_fn=nn.MSELoss())
    return P.execute("step_audit", target, P.ProbeContext(seed=0, budget_s=60), {})


def test_zero_weights_recreated_in_forward_are_found() -> None:
    r = _run(registered=False)
    assert r.status == "failed" and "unregistered_tensors" in r.outcomes, r.summary
    assert "re-creates as zeros" in r.findings[0].text and "w_peep" in r.findings[0].text
    assert "c0" not in r.findings[0].text  # the initial state is read once per call


@pytest.mark.parametrize("registered", [True])
def test_zero_initialised_parameters_and_zero_states_pass(registered: bool) -> None:
    r = _run(registered)
    assert "unregistered_tensors" not in r.outcomes and r.status == "passed", r.summary
