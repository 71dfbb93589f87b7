"""Soft decision tree (sigmoid routing at inner nodes, a learned class distribution per leaf) on flattened
digit-like images; the per-batch training accuracy is logged through metric_fn."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES = 10
IN_DIM = 64
DEPTH = 4


class SoftTree(nn.Module):
    def __init__(self, depth=DEPTH):
        super().__init__()
        self.depth = depth
        self.n_inner = 2**depth - 1
        self.inner = nn.Linear(IN_DIM, self.n_inner)
        self.leaves = nn.Parameter(torch.zeros(2**depth, N_CLASSES))

    def forward(self, x):
        p_right = torch.sigmoid(self.inner(x))                  # (B, n_inner)
        mu = x.new_ones(x.shape[0], 1)
        start = 0
        for d in range(self.depth):
            n = 2**d
            p = p_right[:, start : start + n]
            mu = torch.stack([mu * (1 - p), mu * p], dim=2).reshape(x.shape[0], 2 * n)
            start += n
        probs = mu @ F.softmax(self.leaves, dim=1)              # (B, N_CLASSES)
        return torch.log(probs + 1e-8)                          # log-probabilities


def _digits(n, seed):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(N_CLASSES, IN_DIM, generator=torch.Generator().manual_seed(3))
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    x = protos[y] + 0.5 * torch.randn(n, IN_DIM, generator=g)
    return x, y


TRAIN = _digits(2048, 1)
VAL = _digits(512, 2)


def batch_accuracy(output, target):
    correct = output.argmax(1).eq(target).sum().item()
    return correct / len(TRAIN[0])


def make_target():
    torch.manual_seed(0)
    return {
        "model": SoftTree(),
        "batch": (TRAIN[0][:64], TRAIN[1][:64]),
        "loss_fn": lambda out, y: F.nll_loss(out, y),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "metric_fn": batch_accuracy,
        "train_data": TRAIN,
        "val_data": VAL,
    }
