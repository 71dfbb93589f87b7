"""Character-level LSTM language model whose recurrent state lives on the module and carries over between calls."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 40
SEQ = 20


class CharRNN(nn.Module):
    def __init__(self, hidden=48):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 16)
        self.lstm = nn.LSTM(16, hidden, batch_first=True)
        self.head = nn.Linear(hidden, VOCAB)
        self.state = None  # kept between forward calls

    def forward(self, x):
        h, state = self.lstm(self.emb(x), self.state)
        self.state = tuple(s.detach() for s in state)  # stored for the next call, never reset
        return self.head(h)


def _text(n, seed):
    g = torch.Generator().manual_seed(seed)
    base = torch.arange(VOCAB).repeat(4)
    rows = []
    for _ in range(n):
        start = int(torch.randint(0, VOCAB, (1,), generator=g))
        row = base[start : start + SEQ + 1].clone()
        flip = torch.rand(SEQ + 1, generator=g) < 0.15
        row[flip] = torch.randint(0, VOCAB, (int(flip.sum()),), generator=g)
        rows.append(row)
    t = torch.stack(rows)
    return t[:, :-1], t[:, 1:]


def loss_fn(out, y):
    return F.cross_entropy(out.reshape(-1, VOCAB), y.reshape(-1))


def make_target():
    torch.manual_seed(0)
    return {
        "model": CharRNN(),
        "batch": _text(16, 1),
        "loss_fn": loss_fn,
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": _text(256, 2),
        "val_data": _text(64, 3),
    }
