"""loss_terms: a model returning a small vector of per-stage losses (a residual quantizer's commitment losses)
where later stages' parts have exactly no gradient: the residual was taken from the straight-through output,
`residual - (x + (q - x).detach())`, which is a constant. Taken from the detached codes, every part trains."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run


class ResidualQuantizer(nn.Module):
    def __init__(self, fixed: bool, stages: int = 3) -> None:
        super().__init__()
        self.fixed, self.enc, self.dec = fixed, nn.Linear(6, 4), nn.Linear(4, 6)
        self.codebooks = [torch.randn(8, 4, generator=torch.Generator().manual_seed(s)) for s in range(stages)]

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:  # x: (B, 6)
        residual, total, losses = self.enc(x), 0.0, []
        for book in self.codebooks:
            q = book[torch.cdist(residual, book).argmin(-1)]  # (B, 4) nearest codes
            losses.append(F.mse_loss(q, residual))
            straight = residual + (q - residual).detach()  # straight-through
            total = total + straight
            residual = residual - (q if self.fixed else straight)  # the bug: a constant from stage 2 on
        return self.dec(total), torch.stack(losses)  # (B, 6), (stages,)


def _loss(out: tuple[torch.Tensor, torch.Tensor], x: torch.Tensor) -> torch.Tensor:
    recon, commit = out
    return F.mse_loss(recon, x) + 0.25 * commit.sum()


@pytest.mark.parametrize("fixed", [False, True])
def test_stage_losses_without_gradient_are_found(fixed: bool):
    torch.manual_seed(0)
    x = torch.randn(32, 6)
    r = run("loss_terms", Target(model=ResidualQuantizer(fixed), batch=(x, x), loss_fn=_loss))
    dead = r.outcomes == ["loss_term_without_gradient"]
    assert dead != fixed, (r.summary, r.measurements)
