"""Classifier with BatchNorm and Dropout, trained by a runner that evaluates once before training through a hook."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.5), nn.Linear(64, 3))

    def forward(self, x):
        return self.net(x)


class EvalBeforeTrainHook:
    """Score the initial model before the first epoch."""

    def before_train_epoch(self, runner):
        if runner.epoch == 0:
            runner.model.eval()
            with torch.no_grad():
                runner.log["initial_acc"] = runner.evaluate()


class Runner:
    def __init__(self, model, optimizer, data, hooks=()):
        self.model, self.optimizer, self.data, self.hooks = model, optimizer, data, list(hooks)
        self.epoch, self.log = 0, {}

    def evaluate(self):
        x, y = self.data["val"]
        return (self.model(x).argmax(-1) == y).float().mean().item()

    def train(self, epochs):
        self.model.train()
        for self.epoch in range(epochs):
            for hook in self.hooks:
                hook.before_train_epoch(self)
            for x, y in self.data["train"]:
                loss = F.cross_entropy(self.model(x), y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()


def make_data(g, n=512):
    w = torch.randn(8, 3, generator=torch.Generator().manual_seed(4))
    x = torch.randn(n, 8, generator=g) * 3 + 5  # raw sensor features, far from zero mean
    return x, ((x - 5) @ w).argmax(-1)


def make_target():
    torch.manual_seed(0)
    x, y = make_data(torch.Generator().manual_seed(0), n=64)
    return {
        "model": Classifier(),
        "batch": (x, y),
        "loss_fn": F.cross_entropy,
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9),
        "metric_fn": lambda out, y: (out.argmax(-1) == y).float().mean().item(),
    }
