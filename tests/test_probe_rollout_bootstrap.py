"""terminal_bootstrap, rollout form: GAE and discounted returns over a buffer of back-to-back episodes.

The buggy twin ignores the done flags (the next episode's first value leaks into the last step of the
one before); the healthy twin resets at episode ends. Monte Carlo returns (lambda = 1) read no next value
at ordinary steps, so nothing can be compared: no verdict rather than a false alarm.
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run

GAMMA = 0.99


class ActorCritic(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.body = nn.Sequential(nn.Linear(4, 32), nn.Tanh())
        self.pi, self.v = nn.Linear(32, 2), nn.Linear(32, 1)

    def forward(self, obs: torch.Tensor):  # (T, 4) -> (T, 2) logits, (T,) values
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


def _gae(rewards, values, dones, lam: float, use_dones: bool) -> torch.Tensor:
    adv, gae, next_value = torch.zeros_like(rewards), 0.0, 0.0
    for t in reversed(range(len(rewards))):
        alive = 1.0 - float(dones[t]) if use_dones else 1.0
        delta = rewards[t] + GAMMA * next_value * alive - values[t]
        gae = delta + GAMMA * lam * alive * gae
        adv[t], next_value = gae, values[t]
    return adv


def _target(lam: float, use_dones: bool) -> Target:
    g = torch.Generator().manual_seed(1)
    lengths = [7, 12, 5, 9, 11, 6]
    obs = torch.randn(sum(lengths), 4, generator=g)
    dones = torch.cat([torch.eye(n)[-1] for n in lengths])  # 1.0 at each episode's last step
    rewards = torch.rand(len(dones), generator=g)
    actions = torch.randint(0, 2, (len(dones),), generator=g)

    def loss_fn(out, batch):
        logits, values = out
        adv = _gae(batch["rewards"], values.detach(), batch["dones"], lam, use_dones)
        returns = adv + values.detach()
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        logp = F.log_softmax(logits, -1).gather(1, batch["actions"][:, None]).squeeze(1)
        return -(logp * adv).mean() + 0.5 * F.mse_loss(values, returns)

    return Target(
        model=ActorCritic(),
        batch=(obs, {"rewards": rewards, "dones": dones, "actions": actions}),
        loss_fn=loss_fn,
    )


@pytest.mark.parametrize("lam", [0.95, 0.0])
def test_gae_across_episode_ends_is_found(lam):
    result = run("terminal_bootstrap", _target(lam, use_dones=False))
    assert result.outcomes == ["rollout_bootstraps_terminal"], result.measurements


@pytest.mark.parametrize("lam", [0.95, 0.0])
def test_gae_that_resets_at_episode_ends_passes(lam):
    result = run("terminal_bootstrap", _target(lam, use_dones=True))
    assert result.outcomes == ["rollout_masked"], result.measurements


def test_monte_carlo_returns_give_no_verdict():
    """lambda = 1 with the done flags: ordinary steps read no next value, so there is nothing to compare."""
    result = run("terminal_bootstrap", _target(1.0, use_dones=True))
    assert result.status in ("not_applicable", "inconclusive", "passed"), result.measurements
    assert "rollout_bootstraps_terminal" not in result.outcomes
