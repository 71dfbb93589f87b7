"""Bi-directional-free toy ELMo encoder: an LSTM whose state carries over from one forward call to the next."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 30


class StatefulEncoder(nn.Module):
    def __init__(self, d=16, hidden=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d)
        self.lstm = nn.LSTM(d, hidden, batch_first=True)
        self.head = nn.Linear(hidden, VOCAB)
        self._state = None

    def forward(self, tokens):
        state = self._state
        if state is not None and state[0].shape[1] != tokens.shape[0]:
            state = None
        out, (h, c) = self.lstm(self.emb(tokens), state)
        self._state = (h.detach(), c.detach())  # the next batch starts from here
        return self.head(out)


def _sentences(n, seed, length=8):
    g = torch.Generator().manual_seed(seed)
    seq = torch.randint(0, VOCAB, (n, length + 1), generator=g)
    return seq[:, :-1], seq[:, 1:]


def make_target():
    torch.manual_seed(0)
    x, y = _sentences(8, 1)
    return {
        "model": StatefulEncoder(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out.reshape(-1, VOCAB), t.reshape(-1)),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": _sentences(64, 2),
        "val_data": _sentences(32, 3),
    }
