"""Coordinate-wise learned optimizer: a stack of LSTM cells kept in a plain Python list."""
import torch
import torch.nn as nn


class MetaOptimizerNet(nn.Module):
    def __init__(self, d_in=2, hidden=20, num_layers=2):
        super().__init__()
        self.linear_in = nn.Linear(d_in, hidden)
        self.lstms = []  # BUG: plain list -> cells are not registered as submodules
        for _ in range(num_layers):
            self.lstms.append(nn.LSTMCell(hidden, hidden))
        self.linear_out = nn.Linear(hidden, 1)

    def forward(self, grads_and_params):  # (N, 2): per-coordinate gradient and parameter value
        h = torch.tanh(self.linear_in(grads_and_params))
        for cell in self.lstms:
            h, _ = cell(h)
        return self.linear_out(h)  # proposed update per coordinate


def make_target():
    torch.manual_seed(0)
    inp = torch.randn(64, 2)
    target = -0.1 * inp[:, :1]  # a good update is a scaled negative gradient
    return {
        "model": MetaOptimizerNet(),
        "batch": (inp, target),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
    }
