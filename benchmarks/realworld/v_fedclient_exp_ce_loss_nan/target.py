"""Federated-learning client update with a tilted loss: exp(cross_entropy / eta)."""

import torch
import torch.nn as nn

ETA = 2.0


class ClientNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))

    def forward(self, x):
        return self.net(x)


criterion = nn.CrossEntropyLoss()


def tilted_loss(output, target):
    return torch.exp(criterion(output, target) / ETA)


def client_batches(n_batches, seed):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n_batches):
        x = torch.randn(32, 32, generator=g) * 3.0
        y = torch.randint(0, 10, (32,), generator=g)  # noisy client labels
        out.append((x, y))
    return out


def make_target():
    torch.manual_seed(0)
    data = client_batches(20, 1)
    return {
        "model": ClientNet(),
        "batch": data[0],
        "loss_fn": tilted_loss,
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.5, momentum=0.9),
        "train_data": data,
    }
