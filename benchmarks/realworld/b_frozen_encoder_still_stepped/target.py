"""Tagger with a 'frozen' encoder whose gradients are zeroed but which the optimizer still steps."""
import torch
import torch.nn as nn


class Tagger(nn.Module):
    def __init__(self, d_in=16, dim=32, n_tags=5):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d_in, dim), nn.GELU(), nn.Linear(dim, dim))
        self.head = nn.Linear(dim, n_tags)
        self.encoder_frozen = True

    def forward(self, x):
        return self.head(self.encoder(x))


def make_optimizer(params):
    return torch.optim.AdamW(params, lr=1e-3, weight_decay=0.1)


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    if model.encoder_frozen:
        for p in model.encoder.parameters():
            if p.grad is not None:
                p.grad.zero_()  # BUG: "freezes" by zeroing grads, but the optimizer still updates them
    optimizer.step()
    return loss


def make_target():
    torch.manual_seed(0)
    x = torch.randn(32, 16)
    y = torch.randint(0, 5, (32,))
    return {
        "model": Tagger(),
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": make_optimizer,
        "train_step": train_step,
    }
