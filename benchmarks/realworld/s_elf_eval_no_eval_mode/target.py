"""Policy/value net with dropout; the evaluation routine never calls model.eval()."""

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Dropout(0.5), nn.Linear(64, 64), nn.ReLU(),
                                  nn.Dropout(0.5), nn.Linear(64, 4))

    def forward(self, x):
        return self.body(x)


def eval_fn(model, x):
    with torch.no_grad():  # gradients off, but the model is still in train mode
        return model(x)


def metric_fn(out, y):
    return (out.argmax(-1) == y).float().mean().item()


def make_target():
    torch.manual_seed(0)
    w = torch.randn(20, 4)
    x = torch.randn(256, 20)
    y = (x @ w).argmax(-1)
    model = Net()
    model.train()
    return {"model": model, "batch": (x, y), "loss_fn": nn.CrossEntropyLoss(), "eval_fn": eval_fn,
            "metric_fn": metric_fn, "train_data": (x, y), "val_data": (x[:128], y[:128])}
