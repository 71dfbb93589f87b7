"""Network with two outputs: output1 from an intermediate layer (regression of a raw-valued target),
output2 from the last layer (4-way classification). Total loss = loss_1 + loss_2."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TwoOutputNet(nn.Module):
    def __init__(self, n_in=16, hidden=64, n_classes=4):
        super().__init__()
        self.block1 = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU())
        self.block2 = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU())
        self.head1 = nn.Linear(hidden, 1)          # intermediate output
        self.head2 = nn.Linear(hidden, n_classes)  # final output

    def forward(self, x):
        h1 = self.block1(x)
        out1 = self.head1(h1).squeeze(-1)
        out2 = self.head2(self.block2(h1))
        return out1, out2


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 16, generator=g)
    w = torch.linspace(-1, 1, 16)
    y1 = 120.0 * (x @ w) + 400.0           # raw-unit regression target (hundreds)
    y2 = (x[:, 2] > 0).long() * 2 + (x[:, 3] > 0).long()
    return x, (y1, y2)


def loss_fn(outputs, targets):
    out1, out2 = outputs
    y1, y2 = targets
    loss_1 = F.mse_loss(out1, y1)
    loss_2 = F.cross_entropy(out2, y2)
    return loss_1 + loss_2


def make_target():
    torch.manual_seed(0)
    return {
        "model": TwoOutputNet(),
        "batch": make_data(128, 1),
        "loss_fn": loss_fn,
        "optimizer": lambda params: torch.optim.SGD(params, lr=2e-5, momentum=0.9),
        "train_data": make_data(1024, 2),
        "val_data": make_data(256, 3),
    }
