"""Tiny text classifier: mean-pooled embeddings -> Linear(8, 2) + ReLU -> Linear(2, 3), seeded initialisation."""

import torch
from torch import nn


class TinyClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(214)
        self.emb = nn.EmbeddingBag(30, 8, mode="mean")
        self.ff = nn.Linear(8, 2)
        self.act = nn.ReLU()
        self.out = nn.Linear(2, 3)

    def forward(self, ids):
        return self.out(self.act(self.ff(self.emb(ids))))


def make_target():
    model = TinyClassifier()
    torch.manual_seed(1000)
    ids = torch.randint(0, 30, (16, 6))
    y = ids[:, 0] % 3
    return {"model": model, "batch": (ids, y), "loss_fn": nn.CrossEntropyLoss(),
            "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2)}
