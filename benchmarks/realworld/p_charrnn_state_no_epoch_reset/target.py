"""Char-level LSTM that keeps its recurrent state between calls and never resets it (also not at epoch wrap)."""

import torch
from torch import nn


class CharRNN(nn.Module):
    def __init__(self, vocab=20, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.lstm = nn.LSTM(d, d, batch_first=True)
        self.out = nn.Linear(d, vocab)
        self.state = None

    def forward(self, x):
        if self.state is not None and self.state[0].shape[1] != x.shape[0]:
            self.state = None
        h, state = self.lstm(self.emb(x), self.state)
        self.state = tuple(s.detach() for s in state)   # carried into the next call, never reset
        return self.out(h)


def loss_fn(out, y):
    return nn.functional.cross_entropy(out.reshape(-1, out.shape[-1]), y.reshape(-1))


def _corpus(n_streams=4, length=200, vocab=20, seed=0):
    g = torch.Generator().manual_seed(seed)
    text = torch.randint(0, vocab, (n_streams * length + 1,), generator=g)
    xs = text[:-1].view(n_streams, length)
    ys = text[1:].view(n_streams, length)
    return xs, ys


def make_target():
    torch.manual_seed(0)
    model = CharRNN()
    xs, ys = _corpus()
    seq = 25
    batches = [(xs[:, i:i + seq], ys[:, i:i + seq]) for i in range(0, xs.shape[1], seq)]
    return {
        "model": model,
        "batch": batches[0],
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=2e-3),
        "train_data": batches,
    }
