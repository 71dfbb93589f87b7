"""Bag-of-embeddings text classifier (3 imbalanced classes) whose forward ends in softmax; trained with cross_entropy."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class TextClassifier(nn.Module):
    def __init__(self, vocab=200, d=32, classes=3):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, d)
        self.linear = nn.Linear(d, classes)
        self.softmax = nn.Softmax(dim=1)

    def forward(self, ids):
        return self.softmax(self.linear(self.emb(ids)))


def texts(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.multinomial(torch.tensor([0.7, 0.2, 0.1]), n, replacement=True, generator=g)
    ids = torch.randint(3, 200, (n, 12), generator=g)
    cue = torch.where(torch.rand(n, 1, generator=g) < 0.8, y[:, None], torch.randint(0, 3, (n, 1), generator=g))
    ids[:, :2] = cue  # two (noisy) class-cue tokens per text
    return ids, y


def make_target():
    torch.manual_seed(0)
    x, y = texts(2000, 1)
    return {
        "model": TextClassifier(),
        "batch": (x[:32], y[:32]),
        "loss_fn": nn.CrossEntropyLoss(),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": (x, y),
        "val_data": texts(1000, 2),
    }
