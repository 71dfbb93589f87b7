"""Small digit-recogniser convnet (MNIST-style, 1x12x12 synthetic digits, 10 classes) trained with NLLLoss on
log-probabilities produced inside forward()."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES = 10


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc1 = nn.Linear(16 * 3 * 3, 64)
        self.fc2 = nn.Linear(64, N_CLASSES)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = F.relu(self.fc1(x.flatten(1)))
        x = self.fc2(x)
        x = F.log_softmax(x, dim=0)  # log-probabilities for NLLLoss
        return x


def digits(n, seed):
    g = torch.Generator().manual_seed(1234)
    protos = (torch.rand(N_CLASSES, 1, 12, 12, generator=g) > 0.6).float()
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    x = protos[y] + 0.4 * torch.randn(n, 1, 12, 12, generator=g)
    return x, y


def accuracy(out, y):
    return (out.argmax(1) == y).float().mean().item()


def make_target():
    torch.manual_seed(0)
    return {
        "model": ConvNet(),
        "batch": digits(64, 1),
        "loss_fn": nn.NLLLoss(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.05, momentum=0.9),
        "metric_fn": accuracy,
        "train_data": digits(512, 2),
        "val_data": digits(256, 3),
    }
