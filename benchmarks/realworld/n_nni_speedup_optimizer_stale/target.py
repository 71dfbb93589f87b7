"""Prune-then-finetune pipeline: the finetuning optimizer is built, then the channel-pruning "speedup" step
physically replaces the pruned layers by smaller ones (copying the kept weights), then finetuning runs."""

import torch
import torch.nn as nn


class SmallCNN(nn.Module):
    def __init__(self, c1=16, c2=32):
        super().__init__()
        self.conv1 = nn.Conv2d(3, c1, 3, padding=1)
        self.conv2 = nn.Conv2d(c1, c2, 3, padding=1)
        self.fc = nn.Linear(c2, 10)

    def forward(self, x):
        x = torch.relu(self.conv1(x))
        x = torch.relu(self.conv2(x))
        return self.fc(x.mean((2, 3)))


def speedup_model(model, keep1=8, keep2=16):
    """Replace conv1/conv2/fc by smaller modules holding the kept (largest-L1) channels."""
    with torch.no_grad():
        k1 = model.conv1.weight.abs().sum((1, 2, 3)).topk(keep1).indices.sort().values
        k2 = model.conv2.weight.abs().sum((1, 2, 3)).topk(keep2).indices.sort().values
        conv1 = nn.Conv2d(3, keep1, 3, padding=1)
        conv1.weight.copy_(model.conv1.weight[k1]); conv1.bias.copy_(model.conv1.bias[k1])
        conv2 = nn.Conv2d(keep1, keep2, 3, padding=1)
        conv2.weight.copy_(model.conv2.weight[k2][:, k1]); conv2.bias.copy_(model.conv2.bias[k2])
        fc = nn.Linear(keep2, 10)
        fc.weight.copy_(model.fc.weight[:, k2]); fc.bias.copy_(model.fc.bias)
    model.conv1, model.conv2, model.fc = conv1, conv2, fc
    return model


def finetune_optimizer(model):
    # as in the script: optimizer first, then ModelSpeedup(...).speedup_model(), then finetune(model, optimizer)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    speedup_model(model)
    return optimizer


def images(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 10, (n,), generator=g)
    colour = torch.nn.functional.one_hot(y % 3, 3).float()[:, :, None, None]
    x = torch.randn(n, 3, 8, 8, generator=g) * 0.5 + colour * (1 + y // 3)[:, None, None, None].float() * 0.5
    return x, y


def make_target():
    torch.manual_seed(0)
    return {
        "model": SmallCNN(),
        "batch": images(32, 1),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": finetune_optimizer,
        "train_data": images(256, 2),
        "val_data": images(128, 3),
    }
