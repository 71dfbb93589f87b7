"""Shared encoder + policy output head trained with a REINFORCE-style loss (RL setting)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PolicyHead(nn.Module):
    def __init__(self, d, n_actions):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(d, 32), nn.Tanh(), nn.Linear(32, n_actions))

    def forward(self, h):
        return self.fc(h.detach())


class Agent(nn.Module):
    def __init__(self, obs_dim=8, d=16, n_actions=3):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, d))
        self.output_head = PolicyHead(d, n_actions)

    def forward(self, obs):
        return self.output_head(self.encoder(obs))


def pg_loss(logits, targets):
    actions, advantages = targets[:, 0].long(), targets[:, 1]
    logp = F.log_softmax(logits, dim=-1).gather(1, actions[:, None]).squeeze(1)
    return -(logp * advantages).mean()


def make_target():
    torch.manual_seed(0)
    obs = torch.randn(64, 8)
    actions = torch.randint(0, 3, (64,)).float()
    advantages = torch.randn(64)
    return {
        "model": Agent(),
        "batch": (obs, torch.stack([actions, advantages], dim=1)),
        "loss_fn": pg_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
    }
