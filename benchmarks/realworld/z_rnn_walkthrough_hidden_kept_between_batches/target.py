"""Char-level RNN from a walkthrough, changed to keep its hidden state between independent batches."""

import torch
import torch.nn as nn

V, H = 20, 32


class CharRNN(nn.Module):
    def __init__(self, keep_hidden=True):
        super().__init__()
        self.rnn = nn.RNN(V, H, batch_first=True)
        self.fc = nn.Linear(H, V)
        self.keep_hidden = keep_hidden
        self.hidden = None

    def forward(self, x):
        if self.keep_hidden and self.hidden is not None and self.hidden.shape[1] == x.shape[0]:
            h0 = self.hidden.detach()
        else:
            h0 = torch.zeros(1, x.shape[0], H)
        out, h = self.rnn(x, h0)
        if self.keep_hidden:
            self.hidden = h
        return self.fc(out).reshape(-1, V)


def make_batch(seed=0, n=8, t=6):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, V, (n, t + 1), generator=g)
    x = nn.functional.one_hot(ids[:, :-1], V).float()
    return x, ids[:, 1:].reshape(-1)


def make_target(keep_hidden=True):
    torch.manual_seed(0)
    return {"model": CharRNN(keep_hidden), "batch": make_batch(),
            "loss_fn": nn.CrossEntropyLoss(), "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2)}
