"""SAC critic update for a 4-dimensional action space (BipedalWalker-like)."""
import torch
from torch import nn
import torch.nn.functional as F

OBS, ACT = 24, 4


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS + ACT, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], dim=1))  # (B, 1)


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.mu = nn.Linear(OBS, ACT)
        self.log_std = nn.Parameter(torch.full((ACT,), -0.5))

    def sample(self, obs, g):
        mu = self.mu(obs)
        std = self.log_std.exp().expand_as(mu)
        eps = torch.randn(mu.shape, generator=g)
        pre = mu + std * eps
        act = torch.tanh(pre)
        dist = torch.distributions.Normal(mu, std)
        log_prob = dist.log_prob(pre) - torch.log(1 - act.pow(2) + 1e-6)  # (B, ACT), per action dimension
        return act, log_prob


def td_target(target_critic, actor, rew, obs_next, done, g, gamma=0.99, alpha=0.2):
    with torch.no_grad():
        a_next, logp_next = actor.sample(obs_next, g)
        q_next = target_critic(obs_next, a_next)                     # (B, 1)
        soft_v = q_next - alpha * logp_next                           # (B, ACT)
        return rew.unsqueeze(1) + gamma * (1 - done.unsqueeze(1)) * soft_v


def critic_loss(q, target):
    return F.mse_loss(q, target)


def make_batch(B=128, seed=0):
    g = torch.Generator().manual_seed(seed)
    obs = torch.randn(B, OBS, generator=g)
    act = torch.tanh(torch.randn(B, ACT, generator=g))
    rew = torch.randn(B, generator=g) * 0.5
    obs_next = obs + 0.1 * torch.randn(B, OBS, generator=g)
    done = (torch.rand(B, generator=g) < 0.05).float()
    return obs, act, rew, obs_next, done, g


def make_target():
    torch.manual_seed(0)
    critic, target_critic, actor = Critic(), Critic(), Actor()
    target_critic.load_state_dict(critic.state_dict())
    obs, act, rew, obs_next, done, g = make_batch()
    target = td_target(target_critic, actor, rew, obs_next, done, g)
    return {"model": critic, "batch": ((obs, act), target), "loss_fn": critic_loss,
            "optimizer": lambda p: torch.optim.Adam(p, lr=3e-4)}
