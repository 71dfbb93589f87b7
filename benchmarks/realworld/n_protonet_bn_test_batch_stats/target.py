"""Few-shot style embedding classifier with batch norm; the test routine never switches the model to eval()."""

import torch
from torch import nn

D, NCLS = 20, 5


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = 1.5 * torch.randn(NCLS, D, generator=torch.Generator().manual_seed(7))
    y = torch.randint(0, NCLS, (n,), generator=g)
    x = centers[y] + torch.randn(n, D, generator=g)
    return x, y


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(D, 64), nn.BatchNorm1d(64), nn.ReLU(),
            nn.Linear(64, 64), nn.BatchNorm1d(64), nn.ReLU(),
            nn.Linear(64, NCLS),
        )

    def forward(self, x):
        return self.body(x)


def evaluate(model, x):
    # test episode: queries scored as one batch; no model.eval() anywhere in the test script
    with torch.no_grad():
        return model(x)


def make_target():
    torch.manual_seed(0)
    x, y = make_data(50, 1)
    return {
        "model": Net(),
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "eval_fn": evaluate,
        "metric_fn": lambda out, t: (out.argmax(-1) == t).float().mean().item(),
        "train_data": make_data(500, 2),
        "val_data": make_data(200, 3),
    }
