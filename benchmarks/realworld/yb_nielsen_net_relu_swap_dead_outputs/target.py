"""Nielsen-style 784-30-10 network (quadratic cost, mini-batch SGD, N(0,1) weights and biases) with sigmoid swapped for ReLU."""
import torch
import torch.nn as nn
import torch.nn.functional as F

SIZES = [784, 30, 10]
ETA = 3.0


def sigmoid(z):
    return z * (z > 0)


class Network(nn.Module):
    def __init__(self, sizes=SIZES):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])])
        with torch.no_grad():
            for layer in self.layers:
                layer.weight.normal_(0.0, 1.0)
                layer.bias.normal_(0.0, 1.0)

    def forward(self, a):
        for layer in self.layers:
            a = sigmoid(layer(a))
        return a


def quadratic_cost(output, y):
    target = F.one_hot(y, 10).float()
    return 0.5 * ((output - target) ** 2).sum(1).mean()


def make_digits(n, seed):
    """MNIST-like stand-in in [0, 1]: 10 blurry templates plus pixel noise."""
    templates = torch.rand(10, 1, 28, 28, generator=torch.Generator().manual_seed(7))
    templates = (F.avg_pool2d(templates, 7, stride=1, padding=3) > 0.5).float()
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 10, (n,), generator=g)
    x = (templates[y] + 0.3 * torch.rand(n, 1, 28, 28, generator=g)).clamp(0, 1)
    return x.view(n, -1), y


def make_target():
    torch.manual_seed(0)
    x, y = make_digits(10, seed=0)
    vx, vy = make_digits(200, seed=1)
    return {
        "model": Network(),
        "batch": (x, y),
        "loss_fn": quadratic_cost,
        "optimizer": lambda params: torch.optim.SGD(params, lr=ETA),
        "val_data": [(vx, vy)],
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
    }
