"""A model wrapped by `torch.compile` (TorchDynamo's OptimizedModule around the user's module), with the
"eager" backend so no C++ toolchain is needed: the probes copy and call the wrapper as the user would."""

import torch
from torch import nn
from torch.nn import functional as F


class Regressor(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 64), nn.GELU(), nn.Dropout(0.1), nn.Linear(64, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)  # (B, 1)


def _target(loss_fn):
    torch.manual_seed(0)
    x = torch.randn(32, 6)
    y = x @ torch.linspace(-1, 1, 6) + 0.1 * torch.randn(32)  # (B,)
    return {"model": torch.compile(Regressor(), backend="eager"), "batch": (x, y), "loss_fn": loss_fn}


def make_target():
    return _target(lambda out, y: F.mse_loss(out.squeeze(-1), y))


def make_broadcast_loss():
    """(B, 1) predictions against (B,) targets: the loss averages over B x B pairs."""
    return _target(lambda out, y: ((out - y) ** 2).mean())
