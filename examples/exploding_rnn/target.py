"""A ReLU recurrent net whose recurrent weights were initialised with too large a scale."""

import torch
from torch import nn


class SeqRegressor(nn.Module):
    def __init__(self, hidden: int = 32) -> None:
        super().__init__()
        self.rnn = nn.RNN(4, hidden, nonlinearity="relu", batch_first=True)
        self.out = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.rnn.weight_hh_l0, gain=1.6)  # spectral radius 1.6 > 1

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h, _ = self.rnn(x)  # (B, T, H)
        return self.out(h[:, -1])


def make_target():
    torch.manual_seed(0)
    x = torch.randn(32, 40, 4)
    y = x[:, -5:, 0].sum(1, keepdim=True)
    return {
        "model": SeqRegressor(),
        "batch": (x, y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=1e-4),
    }
