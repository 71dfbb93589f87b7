"""Textual inversion: learn one new token embedding; all other rows of the embedding table are meant to stay fixed."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, DIM, NEW_TOKEN = 50, 16, 49


class TextEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.body = nn.Sequential(nn.Linear(DIM, 32), nn.Tanh(), nn.Linear(32, DIM))
        for p in self.body.parameters():
            p.requires_grad_(False)

    def forward(self, ids):
        return self.body(self.embed(ids).mean(1))


def train_step(model, batch, optimizer, loss_fn):
    ids, target = batch
    optimizer.zero_grad()
    loss = loss_fn(model(ids), target)
    loss.backward()
    # keep the original vocabulary frozen: only the placeholder token may learn
    keep = torch.arange(VOCAB) == NEW_TOKEN
    model.embed.weight.grad[~keep] = 0
    optimizer.step()
    return loss


def _prompts(n, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, VOCAB - 1, (n, 6), generator=g)
    ids[:, 2] = NEW_TOKEN  # "a photo of <concept> ..."
    target = torch.randn(1, DIM, generator=torch.Generator().manual_seed(5)).expand(n, DIM)
    return ids, target


def make_target():
    torch.manual_seed(0)
    model = TextEncoder()
    return {
        "model": model,
        "batch": _prompts(8, 1),
        "loss_fn": lambda out, y: F.mse_loss(out, y),
        "train_step": train_step,
        "optimizer": lambda model: torch.optim.AdamW(model.embed.parameters(), lr=5e-3, weight_decay=1e-2),
        "train_data": _prompts(256, 2),
        "val_data": _prompts(64, 3),
    }
