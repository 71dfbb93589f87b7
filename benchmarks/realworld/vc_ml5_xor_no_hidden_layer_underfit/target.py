import torch
from torch import nn

CORNERS = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
LABELS = torch.tensor([[0.0], [1.0], [1.0], [0.0]])


def xor_samples(n, seed):
    g = torch.Generator().manual_seed(seed)
    idx = torch.randint(0, 4, (n,), generator=g)
    x = CORNERS[idx] + 0.05 * torch.randn(n, 2, generator=g)
    return x, LABELS[idx]


class XorNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.output = nn.Linear(2, 1)

    def forward(self, x):
        return torch.sigmoid(self.output(x))


def make_target():
    torch.manual_seed(0)
    train_x, train_y = xor_samples(64, 1)
    val_x, val_y = xor_samples(64, 2)
    return {
        "model": XorNet(),
        "batch": (train_x, train_y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.5),
        "train_data": (train_x, train_y),
        "val_data": (val_x, val_y),
    }
