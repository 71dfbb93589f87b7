"""DDPG critic update whose Bellman target ignores the done mask."""
import torch
import torch.nn as nn

GAMMA = 0.9


class Critic(nn.Module):
    def __init__(self, d_s=3, d_a=1, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_s + d_a, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, s, a):
        return self.net(torch.cat([s, a], dim=-1))


class Actor(nn.Module):
    def __init__(self, d_s=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_s, 16), nn.Tanh(), nn.Linear(16, 1), nn.Tanh())

    def forward(self, s):
        return 2.0 * self.net(s)


def make_target():
    torch.manual_seed(0)
    critic = Critic()
    actor = Actor()
    for p in actor.parameters():
        p.requires_grad_(False)

    def critic_loss(q, targets):
        r, s_next, done_mask = targets
        with torch.no_grad():
            q_next = critic(s_next, actor(s_next))
            target = r + GAMMA * q_next  # BUG: should be r + GAMMA * q_next * done_mask
        return nn.functional.smooth_l1_loss(q, target)

    n = 64
    s = torch.randn(n, 3)
    a = torch.rand(n, 1) * 4 - 2
    r = torch.ones(n, 1)
    s_next = s.clone()  # after a terminal step the env is reset; s' is irrelevant
    done_mask = torch.zeros(n, 1)  # 0.0 = terminal, as stored by the replay buffer
    return {
        "model": critic,
        "batch": ((s, a), (r, s_next, done_mask)),
        "loss_fn": critic_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=5e-3),
    }
