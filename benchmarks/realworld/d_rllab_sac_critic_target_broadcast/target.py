"""SAC-style critic update: Q(s, a) of shape (B, 1) regressed onto a soft TD target built from per-dimension log-probs."""

import torch
import torch.nn as nn
import torch.nn.functional as F

S_DIM, A_DIM, GAMMA, ALPHA = 6, 4, 0.99, 0.2


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(S_DIM + A_DIM, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, state, action):
        return self.net(torch.cat([state, action], dim=-1))  # (B, 1)


def _transitions(n, seed):
    g = torch.Generator().manual_seed(seed)
    s = torch.randn(n, S_DIM, generator=g)
    a = torch.tanh(torch.randn(n, A_DIM, generator=g))
    r = s[:, :1] - 0.5 * a.pow(2).sum(1, keepdim=True)  # (B, 1)
    q_next = 0.5 * s[:, 1:2]  # (B, 1), from the target critics
    log_prob = -0.5 * torch.randn(n, A_DIM, generator=g).pow(2) - 0.9  # per action dimension, (B, A_DIM)
    td_target = r + GAMMA * (q_next - ALPHA * log_prob)  # (B, A_DIM): log_prob was never summed
    return (s, a), td_target


def make_target():
    torch.manual_seed(0)
    (s, a), y = _transitions(64, 1)
    return {
        "model": Critic(),
        "batch": ((s, a), y),
        "loss_fn": lambda q, td_target: F.mse_loss(q, td_target),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": _transitions(2048, 2),
        "val_data": _transitions(512, 3),
    }
