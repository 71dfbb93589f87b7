"""A centralised critic Q(s, a) regressing value targets, with the optimizer configured as shipped."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_AGENTS, OBS, ACT = 3, 6, 2


class CentralCritic(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        d = N_AGENTS * (OBS + ACT)
        self.net = nn.Sequential(nn.Linear(d, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, joint):
        return self.net(joint).squeeze(-1)


def _transitions(n, seed):
    g = torch.Generator().manual_seed(seed)
    joint = torch.randn(n, N_AGENTS * (OBS + ACT), generator=g)
    w = torch.randn(joint.shape[1], generator=torch.Generator().manual_seed(7))
    q = torch.tanh(joint @ w / 4.0) * 5.0 + 0.5 * joint[:, 0] * joint[:, 1]
    return joint, q


LR_CRITIC = 1e-5  # configured learning rate for the critic (the actor uses the same order)


def make_target():
    torch.manual_seed(0)
    x, y = _transitions(1024, 1)
    return {
        "model": CentralCritic(),
        "batch": (x[:128], y[:128]),
        "loss_fn": lambda q, t: F.mse_loss(q, t),
        "optimizer": lambda params: torch.optim.Adam(params, lr=LR_CRITIC),
        "train_data": (x, y),
        "val_data": _transitions(256, 2),
    }
