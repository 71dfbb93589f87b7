"""Mixup consistency training where the images and the labels are shuffled by two independent permutations."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, d=16, k=4):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, k))

    def forward(self, x):
        return self.body(x)


def soft_ce(logits, soft_targets):
    return -(soft_targets * F.log_softmax(logits, dim=1)).sum(1).mean()


def mixup(x, y_onehot, gen):
    lam = torch.distributions.Beta(1.0, 1.0).sample((x.size(0), 1))
    idx_x = torch.randperm(x.size(0), generator=gen)
    idx_y = torch.randperm(x.size(0), generator=gen)
    x_mix = lam * x + (1 - lam) * x[idx_x]
    y_mix = lam * y_onehot + (1 - lam) * y_onehot[idx_y]
    return x_mix, y_mix


_GEN = torch.Generator().manual_seed(7)


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    x_mix, y_mix = mixup(x, F.one_hot(y, 4).float(), _GEN)
    optimizer.zero_grad()
    loss = loss_fn(model(x_mix), y_mix)
    loss.backward()
    optimizer.step()
    return loss


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(4, 16, generator=torch.Generator().manual_seed(0)) * 2.0
    y = torch.randint(0, 4, (n,), generator=g)
    x = centers[y] + torch.randn(n, 16, generator=g)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = _data(128, 1)
    return {
        "model": Net(),
        "batch": (x, y),
        "loss_fn": lambda out, y: soft_ce(out, F.one_hot(y, 4).float()) if y.dim() == 1 else soft_ce(out, y),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_step": train_step,
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": (x, y),
        "val_data": _data(256, 2),
    }
