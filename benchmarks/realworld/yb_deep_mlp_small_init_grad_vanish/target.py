"""Plain from-scratch style MLP for MNIST digits: bias-free dense layers with leaky ReLU, SGD, NLL loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

INPUT_SIZE = 784
HIDDEN = 100
OUTPUT_SIZE = 10
N_LAYERS = 5
LEARNING_RATE = 0.01


class Layer(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(n_in, n_out) * 0.01)

    def forward(self, x):
        return x @ self.weights


class MLP(nn.Module):
    def __init__(self, n_layers=N_LAYERS):
        super().__init__()
        sizes = [INPUT_SIZE] + [HIDDEN] * (n_layers - 1) + [OUTPUT_SIZE]
        self.layers = nn.ModuleList([Layer(a, b) for a, b in zip(sizes[:-1], sizes[1:])])

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = F.leaky_relu(layer(x), 0.01)
        return F.log_softmax(self.layers[-1](x), dim=-1)


def make_digits(n, seed):
    """MNIST-like stand-in: 10 blurry stroke templates in [0, 1] plus pixel noise, flattened to 784."""
    templates = torch.rand(OUTPUT_SIZE, 1, 28, 28, generator=torch.Generator().manual_seed(7))
    templates = (F.avg_pool2d(templates, 7, stride=1, padding=3) > 0.5).float()
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, OUTPUT_SIZE, (n,), generator=g)
    x = (templates[y] + 0.3 * torch.rand(n, 1, 28, 28, generator=g)).clamp(0, 1)
    return x.view(n, -1), y


def make_target():
    torch.manual_seed(0)
    x, y = make_digits(32, seed=0)
    vx, vy = make_digits(64, seed=1)
    return {
        "model": MLP(),
        "batch": (x, y),
        "loss_fn": nn.NLLLoss(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=LEARNING_RATE),
        "val_data": [(vx, vy)],
    }
