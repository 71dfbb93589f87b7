"""A small conv observation encoder with BatchNorm and an action-class head; each training batch holds frames of one
episode, and every episode has its own lighting offset."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _norm(kind, c):
    return nn.BatchNorm2d(c) if kind == "batch" else nn.GroupNorm(2, c)


class ObsEncoderPolicy(nn.Module):
    def __init__(self, norm="batch", c=8, n_actions=4):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, c, 3, padding=1),
            _norm(norm, c),
            nn.ReLU(),
            nn.Conv2d(c, c, 3, padding=1),
            _norm(norm, c),
            nn.ReLU(),
        )
        self.head = nn.Linear(c, n_actions)

    def forward(self, obs):
        return self.head(self.body(obs).mean((2, 3)))


def _episode(seed, frames=32):
    g = torch.Generator().manual_seed(seed)
    action = torch.randint(0, 4, (frames,), generator=g)
    obs = 0.3 * torch.randn(frames, 1, 8, 8, generator=g)
    for i, a in enumerate(action.tolist()):
        r, c = divmod(a, 2)
        obs[i, 0, 4 * r : 4 * r + 3, 4 * c : 4 * c + 3] += 1.5  # the cue sits in one quadrant
    obs += 2.0 * torch.randn(1, generator=g)  # per-episode lighting offset
    return obs, action


def episodes(first_seed, n):
    return [_episode(first_seed + k) for k in range(n)]


def make_target():
    torch.manual_seed(0)
    return {
        "model": ObsEncoderPolicy(),
        "batch": _episode(0),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": episodes(100, 48),  # one episode per batch
        "val_data": episodes(900, 16),
    }
