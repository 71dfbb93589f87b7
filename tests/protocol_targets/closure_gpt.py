"""A decoder block in the style of a popular small GPT: the MLP is reached through a lambda attribute
(`self.mlpf = lambda x: ...`) that closes over the block's own submodules. `copy.deepcopy` keeps that
closure pointing at the ORIGINAL block, so a naive copy still runs the original's dropout."""

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, d: int = 16) -> None:
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.mlp = nn.ModuleDict({"c_fc": nn.Linear(d, 4 * d), "c_proj": nn.Linear(4 * d, d), "drop": nn.Dropout(0.5)})
        m = self.mlp
        self.mlpf = lambda x: m.drop(m.c_proj(torch.relu(m.c_fc(x))))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.mlpf(self.ln(x))


class ClosureNet(nn.Module):
    def __init__(self, d: int = 16, classes: int = 3) -> None:
        super().__init__()
        self.h = nn.ModuleList([Block(d), Block(d)])
        self.head = nn.Linear(d, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for b in self.h:
            x = b(x)
        return self.head(x)


def make_target():
    torch.manual_seed(0)
    x, y = torch.randn(8, 16), torch.randint(0, 3, (8,))
    return {"model": ClosureNet(), "batch": (x, y), "loss_fn": nn.CrossEntropyLoss()}
