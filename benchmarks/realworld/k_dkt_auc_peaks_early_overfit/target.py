"""DKT (LSTM knowledge tracing) on a small synthetic student-response dataset.

Input at step t: one-hot of (skill_t, correct_t); output: per-skill probability of answering correctly at t+1.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_SKILLS, T = 10, 30


class DKT(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        self.lstm = nn.LSTM(2 * N_SKILLS, hidden, batch_first=True)
        self.out = nn.Linear(hidden, N_SKILLS)

    def forward(self, x):
        h, _ = self.lstm(x)
        return self.out(h)  # logits, (B, T, N_SKILLS)


def _students(n, seed):
    g = torch.Generator().manual_seed(seed)
    difficulty = torch.randn(N_SKILLS, generator=torch.Generator().manual_seed(99))
    ability = torch.randn(n, 1, generator=g)
    skills = torch.randint(0, N_SKILLS, (n, T), generator=g)
    p = torch.sigmoid(ability - difficulty[skills])
    correct = (torch.rand(n, T, generator=g) < p).long()
    x = F.one_hot(skills + N_SKILLS * correct, 2 * N_SKILLS).float()
    # target for step t: (skill at t+1, correctness at t+1)
    y = torch.stack([skills[:, 1:], correct[:, 1:]], -1)
    return x[:, :-1], y


def dkt_loss(logits, y):
    pred = logits.gather(-1, y[..., :1]).squeeze(-1)
    return F.binary_cross_entropy_with_logits(pred, y[..., 1].float())


def auc(logits, y):
    s = logits.gather(-1, y[..., :1]).squeeze(-1).flatten()
    lab = y[..., 1].flatten()
    ranks = torch.empty_like(s)
    ranks[s.argsort()] = torch.arange(1, len(s) + 1, dtype=s.dtype)
    n_pos = lab.sum().item()
    n_neg = len(lab) - n_pos
    return ((ranks[lab == 1].sum().item() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def make_target():
    torch.manual_seed(0)
    train = _students(16, 1)
    return {
        "model": DKT(),
        "batch": train,
        "loss_fn": dkt_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=2e-2),
        "metric_fn": auc,
        "train_data": train,
        "val_data": _students(200, 2),
    }
