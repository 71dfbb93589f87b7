"""NNUE-style learner: eval -> win probability q = sigmoid(eval / scale); cross-entropy against the teacher's
win probability p with a bare log(q) and log(1 - q)."""

import torch
import torch.nn as nn

N_FEAT = 64
SCALE = 600.0  # centipawns per logit unit (roughly)


class TinyNNUE(nn.Module):
    def __init__(self):
        super().__init__()
        self.ft = nn.Linear(N_FEAT, 32)
        self.out = nn.Linear(32, 1)

    def forward(self, x):
        return self.out(torch.relu(self.ft(x))).squeeze(-1) * 600.0  # eval in centipawns


def winprob_loss(eval_cp, teacher_p):
    q = torch.sigmoid(eval_cp / SCALE)
    return -(teacher_p * torch.log(q) + (1 - teacher_p) * torch.log(1 - q)).mean()


def make_batch(g, n=256):
    x = (torch.rand(n, N_FEAT, generator=g) < 0.25).float()
    material = x[:, :8].sum(1) - x[:, 8:16].sum(1)       # piece-count difference
    teacher_cp = 2500.0 * material                         # decisive positions reach several thousand cp
    teacher_p = torch.sigmoid(teacher_cp / SCALE)
    return x, teacher_p


def make_target():
    torch.manual_seed(0)
    model = TinyNNUE()
    x, p = make_batch(torch.Generator().manual_seed(0))
    return {
        "model": model,
        "batch": (x, p),
        "loss_fn": winprob_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
    }
