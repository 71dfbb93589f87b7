"""PPO actor-critic update on one minibatch from a rollout buffer (discrete actions)."""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=8, n_actions=4, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h)


CLIP, VF_COEF, ENT_COEF = 0.2, 0.5, 0.01


def ppo_loss(output, targets):
    logits, critic_values = output
    actions, old_log_probs, advantages, returns = targets
    dist = Categorical(logits=logits)
    ratio = torch.exp(dist.log_prob(actions) - old_log_probs)
    pg_loss = -torch.min(ratio * advantages, torch.clamp(ratio, 1 - CLIP, 1 + CLIP) * advantages).mean()
    value_loss = 0.5 * ((critic_values - returns) ** 2).mean()
    return pg_loss + VF_COEF * value_loss - ENT_COEF * dist.entropy().mean()


def make_rollout(n=64, obs_dim=8, n_actions=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    obs = torch.randn(n, obs_dim, generator=g)
    actions = torch.randint(0, n_actions, (n,), generator=g)
    old_log_probs = torch.full((n,), -torch.log(torch.tensor(float(n_actions))).item())
    # discounted returns from the buffer, laid out (n_envs, n_steps)
    w = torch.randn(obs_dim, generator=g)
    returns = (obs @ w + 0.1 * torch.randn(n, generator=g)).unsqueeze(0)          # (n_envs=1, n)
    advantages = (returns - returns.mean()) / (returns.std() + 1e-8)
    return obs, (actions, old_log_probs, advantages.squeeze(0), returns)


def make_target():
    torch.manual_seed(0)
    obs, targets = make_rollout()
    return {
        "model": ActorCritic(),
        "batch": (obs, targets),
        "loss_fn": ppo_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-4, eps=1e-5),
    }
