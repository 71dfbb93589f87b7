"""A pretrained encoder (Linear + BatchNorm) frozen with requires_grad only, fine-tuned with a new head."""

import torch
from torch import nn

D, H = 16, 32


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(D, H), nn.BatchNorm1d(H), nn.ReLU())
        self.head = nn.Linear(H, 1)

    def forward(self, x):
        return self.head(self.encoder(x)).squeeze(-1)


def pretrain_data(seed=1, n=512):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, D, generator=g)
    return x, torch.sin(x[:, :4].sum(1))


def finetune_data(seed=2, n=128):
    g = torch.Generator().manual_seed(seed)
    x = 2.0 * torch.randn(n, D, generator=g) + 1.5  # new chemistry: shifted feature distribution
    return x, torch.cos(x[:, 4:8].sum(1))


def pretrained_model():
    torch.manual_seed(0)
    model = Model()
    x, y = pretrain_data()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    model.train()
    for _ in range(150):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model


def freeze_encoder(model):
    for p in model.encoder.parameters():
        p.requires_grad_(False)
    return model


def train_step(model, batch, optimizer, loss_fn):
    model.train()
    x, y = batch
    loss = loss_fn(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss


def make_target():
    model = freeze_encoder(pretrained_model())
    x, y = finetune_data()
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.functional.mse_loss,
        "optimizer": lambda p: torch.optim.Adam([q for q in p if q.requires_grad], lr=1e-2),
        "train_step": train_step,
        "train_data": (x, y),
        "val_data": pretrain_data(seed=3, n=256),
    }
