"""DDPG-style critic update on a small episodic task (episodes of 10 steps, reward 1 per step)."""

import torch
from torch import nn

GAMMA = 0.99
EP_LEN = 10


class Critic(nn.Module):
    def __init__(self, obs_dim=2, act_dim=1, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], dim=-1)).squeeze(-1)


def policy(obs):
    # fixed deterministic actor for the critic update
    return torch.tanh(obs[:, :1] * 2.0 - 1.0)


def collect(n_episodes=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    obs, act, rew, nxt, done = [], [], [], [], []
    for _ in range(n_episodes):
        phase = torch.rand(1, generator=g).item()
        for t in range(EP_LEN):
            o = torch.tensor([t / EP_LEN, phase])
            a = torch.tanh(torch.randn(1, generator=g))
            last = t == EP_LEN - 1
            # after the last step the env is reset: the stored next obs is the new episode's first obs
            o2 = torch.tensor([0.0, torch.rand(1, generator=g).item()]) if last else torch.tensor([(t + 1) / EP_LEN, phase])
            obs.append(o); act.append(a); rew.append(1.0); nxt.append(o2); done.append(float(last))
    return (torch.stack(obs), torch.stack(act)), (torch.tensor(rew), torch.stack(nxt), torch.tensor(done))


critic = Critic()


def loss_fn(q, targets):
    rew, nxt, done = targets
    with torch.no_grad():
        q_next = critic(nxt, policy(nxt))
        y = rew + GAMMA * q_next
    return nn.functional.mse_loss(q, y)


def make_target():
    global critic
    torch.manual_seed(0)
    critic = Critic()
    inputs, targets = collect()
    return {
        "model": critic,
        "batch": (inputs, targets),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
    }
