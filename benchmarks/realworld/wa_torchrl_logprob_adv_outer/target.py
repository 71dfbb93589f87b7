"""REINFORCE-style update for a Gaussian policy on a contextual bandit.

Rollout keys follow the usual convention of a trailing feature dim: advantage is (n, 1). The policy's
log-probability of the sampled action comes out of an Independent Normal and has shape (n,).
"""
import torch
import torch.nn as nn
from torch.distributions import Independent, Normal

OBS, ACT = 3, 1


class GaussianPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS, 32), nn.Tanh(), nn.Linear(32, 2 * ACT))

    def forward(self, obs):
        loc, raw_scale = self.body(obs).chunk(2, -1)
        return loc, nn.functional.softplus(raw_scale) + 1e-3


def reinforce_loss(output, targets):
    loc, scale = output
    action, advantage = targets                 # action: (n, 1), advantage: (n, 1)
    log_prob = Independent(Normal(loc, scale), 1).log_prob(action)   # (n,)
    return -(log_prob * advantage).mean()


def rollout(policy, n=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    obs = torch.randn(n, OBS, generator=g)
    with torch.no_grad():
        loc, scale = policy(obs)
        action = loc + scale * torch.randn(n, ACT, generator=g)
    best = obs[:, :1]                            # the rewarded action is the first observation coordinate
    reward = -(action - best).pow(2)             # (n, 1)
    advantage = reward - reward.mean()
    return obs, (action, advantage)


def make_target():
    torch.manual_seed(0)
    policy = GaussianPolicy()
    obs, targets = rollout(policy)
    return {
        "model": policy,
        "batch": (obs, targets),
        "loss_fn": reinforce_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
    }
