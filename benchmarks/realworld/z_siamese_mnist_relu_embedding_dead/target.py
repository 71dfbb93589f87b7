"""10-way classifier through a 2-d embedding, all activations plain ReLU (default init)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

ACT = nn.ReLU
SEED = 4


class EmbeddingNet(nn.Module):
    def __init__(self, act=ACT):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(64, 256), act(), nn.Linear(256, 256), act(), nn.Linear(256, 2))

    def forward(self, x):
        return self.fc(x)


class ClassificationNet(nn.Module):
    def __init__(self, act=ACT):
        super().__init__()
        self.embedding_net = EmbeddingNet(act)
        self.nonlinear = act()
        self.fc1 = nn.Linear(2, 10)

    def forward(self, x):
        return self.fc1(self.nonlinear(self.embedding_net(x)))


def make_data(g, n):
    y = torch.randint(0, 10, (n,), generator=g)
    proto = torch.rand(10, 64, generator=torch.Generator().manual_seed(3))
    return (proto[y] + 0.3 * torch.rand(n, 64, generator=g)).clamp(0, 1), y


def make_target():
    torch.manual_seed(SEED)
    model = ClassificationNet()
    x, y = make_data(torch.Generator().manual_seed(0), 128)
    return {"model": model, "batch": (x, y), "loss_fn": F.cross_entropy,
            "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3)}
