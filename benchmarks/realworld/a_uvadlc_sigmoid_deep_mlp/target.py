"""Tutorial-style BaseNetwork: MLP 784-512-256-256-128-10 with a configurable activation (here sigmoid)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BaseNetwork(nn.Module):
    def __init__(self, act_fn=nn.Sigmoid, input_size=784, num_classes=10, hidden_sizes=(512, 256, 256, 128)):
        super().__init__()
        layers = []
        sizes = [input_size, *hidden_sizes]
        for a, b in zip(sizes[:-1], sizes[1:]):
            layers += [nn.Linear(a, b), act_fn()]
        layers.append(nn.Linear(sizes[-1], num_classes))
        self.layers = nn.Sequential(*layers)

    def forward(self, x):
        return self.layers(x.view(x.size(0), -1))


def make_target():
    torch.manual_seed(0)
    imgs = torch.rand(64, 1, 28, 28) * 2 - 1         # normalised to [-1, 1] like the tutorial's transform
    labels = torch.randint(0, 10, (64,))
    return {
        "model": BaseNetwork(),
        "batch": ((imgs,), labels),
        "loss_fn": lambda logits, y: F.cross_entropy(logits, y),
        "optimizer": lambda params: torch.optim.SGD(params, lr=1e-2, momentum=0.9),
    }
