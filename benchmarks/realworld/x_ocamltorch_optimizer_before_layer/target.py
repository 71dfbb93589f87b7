"""A regressor whose layers live in a variable store; the output layer is (re)created when the model is first run,
i.e. after the optimizer has already been built from the store's parameters."""

import torch
import torch.nn as nn


class VarStoreRegressor(nn.Module):
    def __init__(self, input_dim=2):
        super().__init__()
        self.input_dim = input_dim
        self.linear = nn.Linear(input_dim, 1)  # placeholder registered at construction
        self._built = False

    def build(self):
        torch.manual_seed(42)
        self.linear = nn.Linear(self.input_dim, 1)  # the layer actually used from here on
        self._built = True

    def forward(self, x):
        if not self._built:
            self.build()
        return self.linear(x).squeeze(-1)


def make_target():
    torch.manual_seed(0)
    model = VarStoreRegressor()
    xs = torch.ones(1, 2)
    ys = torch.full((1,), 10.0)
    return {
        "model": model,
        "batch": (xs, ys),
        "loss_fn": lambda out, y: ((out - y) ** 2).mean(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=1e-3),
    }
