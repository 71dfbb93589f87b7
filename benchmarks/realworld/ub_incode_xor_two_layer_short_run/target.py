"""Two-layer logistic network (2 -> 4 -> 1) learning XOR with plain SGD on squared error."""
import torch
import torch.nn as nn

X = torch.tensor([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
Y = torch.tensor([[0.0], [1.0], [1.0], [0.0]])
TRAIN_STEPS = 1000  # what the run used


class TwoLayer(nn.Module):
    def __init__(self, hidden=4):
        super().__init__()
        self.hidden = nn.Linear(2, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        return torch.sigmoid(self.out(torch.sigmoid(self.hidden(x))))


def squared_error(pred, target):
    return ((pred - target) ** 2).mean()


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    model.train()
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def make_target():
    torch.manual_seed(1)
    return {
        "model": TwoLayer(),
        "batch": (X.clone(), Y.clone()),
        "loss_fn": squared_error,
        "optimizer": lambda params: torch.optim.SGD(params, lr=1.0),
        "train_step": train_step,
        "metric_fn": lambda out, y: ((out > 0.5).float() == y).float().mean().item(),
        "train_data": (X.repeat(16, 1), Y.repeat(16, 1)),
        "val_data": (X.clone(), Y.clone()),
    }
