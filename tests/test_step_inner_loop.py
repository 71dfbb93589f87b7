"""step_audit on a train_step with an inner loop of optimizer steps (several critic steps per generator step):
gradients cleared once before the loop pile up across the inner steps; cleared before each step, they do not."""

from __future__ import annotations

from typing import Any

import pytest
import torch
from torch import nn

import debug_agent.probes as P
from debug_agent.isolation import probe_registry
from debug_agent.schemas import ProbeResult, Target


class Pair(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 8))
        self.D = nn.Sequential(nn.Linear(8, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))

    def forward(self, z: torch.Tensor, real: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.D(real), self.D(self.G(z))  # (B, 1) scores of real and generated rows


def _hinge(out: tuple[torch.Tensor, torch.Tensor], _: Any) -> torch.Tensor:
    real, fake = out
    return torch.relu(1 - real).mean() + torch.relu(1 + fake).mean()


def _target(clear_each_step: bool, critic_steps: int = 3) -> Target:
    def step(model: Pair, batch: Any, opt: torch.optim.Optimizer, loss_fn: Any) -> torch.Tensor:
        (z, real), _ = batch
        model.D.requires_grad_(True)
        opt.zero_grad()
        for _ in range(critic_steps):
            if clear_each_step:
                opt.zero_grad()  # the healthy loop clears before every critic step
            with torch.no_grad():
                fake = model.G(torch.randn_like(z))
            d_loss = _hinge((model.D(real), model.D(fake)), None)
            d_loss.backward()
            opt.step()
        opt.zero_grad()
        model.D.requires_grad_(False)  # the generator step must not move the critic
        g_loss = -model.D(model.G(z)).mean()
        g_loss.backward()
        opt.step()
        model.D.requires_grad_(True)
        return d_loss.detach()

    torch.manual_seed(0)
    z, real = torch.randn(32, 4), torch.randn(32, 8) + 1.0
    return Target(
        model=Pair(), batch=((z, real), torch.ones(32)), loss_fn=_hinge, train_step=step,
        optimizer=lambda p: torch.optim.Adam(p, lr=2e-4),
    )  # fmt: skip


def _run(target: Target) -> ProbeResult:
    probe_registry()
    return P.execute("step_audit", target, P.ProbeContext(seed=0, budget_s=60), {})


def test_critic_gradients_cleared_once_before_the_inner_loop_pile_up() -> None:
    r = _run(_target(clear_each_step=False))  # BUG: zero_grad sits outside the critic loop
    assert r.status == "failed" and "grads_accumulate" in r.outcomes, r.summary
    assert r.measurements["optimizer_steps_per_call"] == 4
    assert any(n.startswith("D.") for n in r.measurements["inner_steps_holding_old_grad"])
    assert "cleared once per call" in r.findings[0].text


@pytest.mark.parametrize("critic_steps", [1, 3])
def test_critic_gradients_cleared_before_each_inner_step_pass(critic_steps: int) -> None:
    r = _run(_target(clear_each_step=True, critic_steps=critic_steps))
    assert "grads_accumulate" not in r.outcomes and "grads_cleared" in r.outcomes, r.summary
    one = _run(_target(clear_each_step=False, critic_steps=1))  # one critic step: clearing once is enough
    assert "grads_accumulate" not in one.outcomes, one.summary
