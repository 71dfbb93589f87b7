"""Critic trained on GAE returns from a rollout buffer holding several back-to-back episodes (auto-reset env)."""

import torch
from torch import nn

GAMMA, LAM = 0.9, 0.95
EP_LEN = 5


def rollout(n_eps=8):
    """Chain env: positions 0..4, reward 1 per step, the episode ends after the step taken in position 4
    and the env resets to position 0 in the same buffer. obs has T+1 rows (the last one is the bootstrap obs)."""
    obs, rew, done = [], [], []
    for _ in range(n_eps):
        for k in range(EP_LEN):
            o = torch.zeros(EP_LEN)
            o[k] = 1.0
            obs.append(o)
            rew.append(1.0)
            done.append(1.0 if k == EP_LEN - 1 else 0.0)
    last = torch.zeros(EP_LEN)
    last[0] = 1.0
    obs.append(last)
    return torch.stack(obs), torch.tensor(rew), torch.tensor(done)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.v = nn.Sequential(nn.Linear(EP_LEN, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, obs):
        return self.v(obs).squeeze(-1)


def gae_returns(values, rewards, dones):
    v = values.detach()
    deltas = rewards + GAMMA * v[1:] - v[:-1]
    adv = torch.zeros_like(rewards)
    gae = torch.zeros(())
    for t in reversed(range(rewards.shape[0])):
        gae = deltas[t] + GAMMA * LAM * (1.0 - dones[t]) * gae
        adv[t] = gae
    return adv + v[:-1]


def loss_fn(values, targets):
    rewards, dones = targets
    returns = gae_returns(values, rewards, dones)
    return ((values[:-1] - returns) ** 2).mean()


def make_target():
    torch.manual_seed(0)
    obs, rew, done = rollout()
    return {
        "model": Critic(),
        "batch": (obs, (rew, done)),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
    }
