"""grad_check away from the starting point: a hand-written backward that is right only at initialisation
(the Jacobian taken at the mean while the forward uses mean + velocity, with velocity starting at 0)."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from .test_probes_by_design import run


class Moved(torch.autograd.Function):
    """(mean + velocity)**2 per coordinate; `stale` differentiates at `mean` alone, as if velocity were 0."""

    @staticmethod
    def forward(ctx, mean: torch.Tensor, vel: torch.Tensor, stale: bool) -> torch.Tensor:  # (N, 3) each
        ctx.save_for_backward(mean, vel)
        ctx.stale = stale
        return (mean + vel) ** 2

    @staticmethod
    def backward(ctx, grad_out: torch.Tensor):
        mean, vel = ctx.saved_tensors
        where = mean if ctx.stale else mean + vel
        return 2 * where * grad_out, 2 * where * grad_out, None


class Points(nn.Module):
    def __init__(self, stale: bool) -> None:
        super().__init__()
        self.mean = nn.Parameter(torch.randn(16, 3, generator=torch.Generator().manual_seed(0)))
        self.vel = nn.Parameter(torch.zeros(16, 3))  # starts at rest: at this point both backwards agree
        self.stale = stale

    def forward(self, scale: torch.Tensor) -> torch.Tensor:  # (B, 1) -> (B, 16, 3)
        return scale[:, :, None] * Moved.apply(self.mean, self.vel, self.stale)


@pytest.mark.parametrize(("stale", "status"), [(True, "failed"), (False, "passed")])
def test_a_backward_right_only_at_the_start_is_caught_a_step_away(stale, status):
    from debug_agent.schemas import Target

    t = Target(
        model=Points(stale), batch=(torch.ones(4, 1), torch.zeros(4, 16, 3)), loss_fn=nn.functional.mse_loss
    )
    r = run("grad_check", t)
    assert r.status == status, r.summary
    assert r.measurements["also_checked_jittered"]
    # plain torch at the starting point: the stale backward gives autograd's own gradient there
    m = Points(True)
    (m(torch.ones(4, 1)) ** 2).sum().backward()
    m2 = Points(True)
    ((torch.ones(4, 1)[:, :, None] * (m2.mean + m2.vel) ** 2) ** 2).sum().backward()
    assert torch.allclose(m.vel.grad, m2.vel.grad)
