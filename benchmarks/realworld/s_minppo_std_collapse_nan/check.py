"""Self-contained: a PPO-style clipped actor loss on a Gaussian policy whose std is softplus(raw) with no floor.
The policy keeps sharpening on positive-advantage actions; the std underflows and the loss turns NaN. With the
floor of 1e-3 it stays finite."""

import math

import torch
import torch.nn.functional as F
from torch import nn


class Actor(nn.Module):
    def __init__(self, floor):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 32), nn.Tanh())
        self.mu_head = nn.Linear(32, 2)
        self.std_head = nn.Linear(32, 2)
        self.floor = floor

    def forward(self, obs):
        h = self.body(obs)
        std = F.softplus(self.std_head(h))
        return self.mu_head(h), std + self.floor if self.floor else std


def log_prob(a, mu, std, floor):
    if floor:
        return (-(a - mu).pow(2) / (2 * std.pow(2)) - std.log() - 0.5 * math.log(2 * math.pi)).sum(-1)
    return (-(a - mu).pow(2) / (2 * std.pow(2)) - torch.log(std + 1e-8) - 0.5 * math.log(2 * math.pi)).sum(-1)


def _run(floor):
    torch.manual_seed(0)
    actor = Actor(floor)
    opt = torch.optim.Adam(actor.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(1)
    obs = torch.randn(128, 6, generator=g)
    for step in range(150):
        with torch.no_grad():
            mu, std = actor(obs)
            actions = mu  # near-deterministic rollouts: sampled actions sit on the mean
            old_lp = log_prob(actions, mu, std, floor)
        adv = torch.ones(128)
        mu, std = actor(obs)
        lp = log_prob(actions, mu, std, floor)
        ratio = torch.exp(lp - old_lp)
        # PPO clipped surrogate plus a behaviour-cloning term on the (positive-advantage) rollout actions
        loss = -torch.min(ratio * adv, ratio.clamp(0.8, 1.2) * adv).mean() - 0.1 * lp.mean()
        if not torch.isfinite(loss):
            return step, std.min().item()
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(actor.parameters(), 0.5)
        opt.step()
    return None, actor(obs)[1].min().item()


def _check() -> str:
    bad_step, bad_std = _run(floor=0.0)
    ok_step, ok_std = _run(floor=1e-3)
    assert bad_step is not None, bad_std
    assert ok_step is None, ok_step
    return f"no std floor: actor loss NaN at update {bad_step} (min std {bad_std:.1e}); with +1e-3 floor finite for 150 updates (min std {ok_std:.1e})"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
