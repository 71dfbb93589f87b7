import torch
from torch import nn

print("hello from the user's module")  # must not corrupt the worker protocol


def make_target():
    print('{"event": "ready"}')
    torch.manual_seed(0)
    x = torch.randn(16, 3)
    return {"model": nn.Linear(3, 1), "batch": (x, x[:, :1] * 2), "loss_fn": nn.MSELoss(),
            "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2)}
