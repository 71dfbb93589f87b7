"""MNIST-style MLP classifier whose last fully connected layer is followed by a ReLU, fed to softmax cross-entropy."""
import torch
from torch import nn

N_IN, N_CLASSES = 64, 10


def fc(n_in, n_out):
    return nn.Sequential(nn.Linear(n_in, n_out), nn.ReLU())


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = fc(N_IN, 32)
        self.fc2 = fc(32, N_CLASSES)   # logits layer built with the same helper as the hidden layer

    def forward(self, x):
        return self.fc2(self.fc1(x))


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(N_CLASSES, N_IN, generator=torch.Generator().manual_seed(42))
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    x = protos[y] + 1.2 * torch.randn(n, N_IN, generator=g)
    return x, y


def accuracy(output, targets):
    return (output.argmax(-1) == targets).float().mean().item()


def make_target():
    torch.manual_seed(0)
    x, y = _data(1024, 0)
    vx, vy = _data(512, 1)
    return {
        "model": Net(),
        "batch": (x[:128], y[:128]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "metric_fn": accuracy,
        "train_data": (x, y),
        "val_data": (vx, vy),
    }
