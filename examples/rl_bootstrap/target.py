"""An actor-critic's critic: V(s) regressed on one-step TD targets built from the critic's own V(s')."""

import torch
from torch import nn

GAMMA = 0.99


class Critic(nn.Module):
    def __init__(self, obs_dim: int = 6) -> None:
        super().__init__()
        self.v = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 1))

    def forward(self, obs):  # (B, obs_dim) -> (B,)
        return self.v(obs).squeeze(-1)


def make_target():
    torch.manual_seed(0)
    critic = Critic()

    def td_loss(values, transitions):
        rewards, next_obs, dones = transitions  # (B,), (B, obs_dim), (B,) with 1.0 where the episode ended
        with torch.no_grad():
            next_values = critic(next_obs)  # (B,)
            targets = rewards + GAMMA * next_values  # the (1 - dones) factor went missing here
        return nn.functional.mse_loss(values, targets)

    n = 128
    obs = torch.randn(n, 6)
    next_obs = obs + 0.1 * torch.randn(n, 6)
    dones = (torch.rand(n) < 0.1).float()
    next_obs[dones.bool()] = torch.randn(int(dones.sum()), 6)  # the reset observation of the next episode
    rewards = torch.randn(n) * 0.1 + dones  # a bonus on the last step
    return {
        "model": critic,
        "batch": (obs, (rewards, next_obs, dones)),
        "loss_fn": td_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-4),
    }
