"""ICM-style inverse model: the encoder is meant to train through the inverse loss, but obs are detached again."""

import torch
import torch.nn as nn


class ICMAgent(nn.Module):
    def __init__(self, update_encoder=True, detach_again=True):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(16, 16), nn.ReLU())
        self.inverse = nn.Linear(32, 4)
        self.update_encoder = update_encoder
        self.detach_again = detach_again

    def forward(self, obs, next_obs):
        obs, next_obs = self.encoder(obs), self.encoder(next_obs)
        if not self.update_encoder:
            obs, next_obs = obs.detach(), next_obs.detach()
        if self.detach_again:
            obs, next_obs = obs.detach(), next_obs.detach()
        return self.inverse(torch.cat([obs, next_obs], -1))


def make_batch(n=256):
    g = torch.Generator().manual_seed(3)
    obs = torch.randn(n, 16, generator=g)
    act = torch.randint(0, 4, (n,), generator=g)
    next_obs = obs.clone()
    next_obs[torch.arange(n), act] += 2.0
    return (obs, next_obs), act


def make_target(detach_again=True):
    torch.manual_seed(0)
    return {"model": ICMAgent(True, detach_again), "batch": make_batch(),
            "loss_fn": nn.CrossEntropyLoss(), "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3)}
