"""A GRU sequence classifier over token ids (the reference case: a layout refactor)."""

import torch
from torch import nn

VOCAB, CLASSES, T, BATCH = 64, 4, 12, 16


class SeqClassifier(nn.Module):
    def __init__(self, vocab: int = VOCAB, dim: int = 32, classes: int = CLASSES) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim)  # time-major: expects (T, B, C)
        self.head = nn.Linear(dim, classes)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens)  # (B, T, C)
        B, T, C = x.shape
        x = x.reshape(T, B, C)  # (T, B, C) for the time-major GRU
        h, _ = self.rnn(x)  # (T, B, C)
        h = h.reshape(B, T, C)  # back to (B, T, C)
        return self.head(h.mean(dim=1))  # (B, classes)


def make_target():
    torch.manual_seed(0)
    tokens = torch.randint(0, VOCAB, (BATCH, T))
    labels = tokens[:, 0] % CLASSES  # learnable from the first token
    return {
        "model": SeqClassifier(),
        "batch": (tokens, labels),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
    }
