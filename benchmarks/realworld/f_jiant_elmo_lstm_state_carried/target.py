"""A sentence classifier over a stateful LSTM encoder (ELMo-style): the encoder remembers its last states."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class StatefulEncoder(nn.Module):
    def __init__(self, vocab=40, dim=16, hidden=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, hidden, batch_first=True)
        self._states = None

    def forward(self, ids):
        states = self._states
        if states is not None and states[0].shape[1] != ids.shape[0]:
            states = None
        out, (h, c) = self.lstm(self.emb(ids), states)
        self._states = (h.detach(), c.detach())  # kept for the next call
        return out


class SentenceClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = StatefulEncoder()
        self.head = nn.Linear(32, 2)

    def forward(self, ids):
        return self.head(self.encoder(ids).mean(1))


def _sentences(n, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 40, (n, 10), generator=g)
    polarity = torch.where(ids < 20, 1.0, -1.0)  # low ids are "positive" words
    return ids, (polarity.sum(1) > 0).long()


def make_target():
    torch.manual_seed(0)
    x, y = _sentences(32, 1)
    return {
        "model": SentenceClassifier(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": _sentences(1024, 2),
        "val_data": _sentences(256, 3),
    }
