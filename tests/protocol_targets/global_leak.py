"""A model whose forward reaches a module through a module-level global: no copy can be isolated."""

import torch
from torch import nn

SHARED = nn.Linear(4, 4)


class UsesGlobal(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.own = nn.Linear(4, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.own(SHARED(x))


def make_target():
    torch.manual_seed(0)
    return {"model": nn.Sequential(UsesGlobal()), "batch": (torch.randn(8, 4), torch.randint(0, 2, (8,))),
            "loss_fn": nn.CrossEntropyLoss()}
