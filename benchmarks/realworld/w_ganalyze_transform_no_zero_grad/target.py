"""GANalyze-style setup: frozen generator and assessor, a learned latent direction trained with Adam; the step never zeroes grads."""

import torch
import torch.nn as nn

DIM_Z = 16


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(DIM_Z, 48)
        nn.init.normal_(self.net.weight, std=DIM_Z ** -0.5)

    def forward(self, z):
        return torch.tanh(self.net(z))


class Assessor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(48, 1)
        nn.init.normal_(self.net.weight, std=48 ** -0.5)

    def forward(self, img):
        return self.net(img).squeeze(-1)


class OneDirection(nn.Module):
    """z' = z + alpha * w, then generator -> assessor score."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.zeros(DIM_Z))
        self.generator = Generator().requires_grad_(False).eval()
        self.assessor = Assessor().requires_grad_(False).eval()

    def forward(self, z, alpha):
        return self.assessor(self.generator(z + alpha[:, None] * self.w))


def loss_fn(out, target_scores):
    return ((out - target_scores) ** 2).mean()


def train_step(model, batch, optimizer, loss_fn):
    (z, alpha), target_scores = batch
    out = model(z, alpha)
    loss = loss_fn(out, target_scores)
    loss.backward()
    optimizer.step()
    return loss


def sample_batch(model, g, n=8):
    z = torch.randn(n, DIM_Z, generator=g)
    alpha = torch.rand(n, generator=g) * 0.5 - 0.25
    with torch.no_grad():
        target = model.assessor(model.generator(z)) + alpha
    return (z, alpha), target


def make_target():
    torch.manual_seed(0)
    model = OneDirection()
    g = torch.Generator().manual_seed(1)
    return {
        "model": model,
        "batch": sample_batch(model, g),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=0.05),
        "train_step": train_step,
        "call_model": lambda m, inputs: m(*inputs),
    }
