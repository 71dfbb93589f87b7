"""AWD-LSTM style stateful encoder: the hidden state from the previous forward call seeds the next one."""

import torch
import torch.nn as nn
import torch.nn.functional as F

V, D = 120, 24


class StatefulEncoder(nn.Module):
    """Keeps (h, c) between calls, as language-model encoders do for BPTT over a long stream; reset() clears it."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.rnn = nn.LSTM(D, D, batch_first=True)
        self.hidden = None

    def reset(self):
        self.hidden = None

    def forward(self, token_ids):
        if self.hidden is not None and self.hidden[0].shape[1] != token_ids.shape[0]:
            self.hidden = None
        out, hidden = self.rnn(self.emb(token_ids), self.hidden)
        self.hidden = tuple(h.detach() for h in hidden)
        return out


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = StatefulEncoder()
        self.head = nn.Linear(D, 2)

    def forward(self, token_ids):
        return self.head(self.encoder(token_ids)[:, -1])


def make_batch(g, n=16, length=10):
    x = torch.randint(0, V, (n, length), generator=g)
    y = (x[:, :3] < V // 2).sum(-1).ge(2).long()   # label depends on the first tokens of the sentence
    return x, y


def make_target():
    torch.manual_seed(0)
    return {
        "model": Classifier(),
        "batch": make_batch(torch.Generator().manual_seed(0)),
        "loss_fn": F.cross_entropy,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "metric_fn": lambda out, y: (out.argmax(-1) == y).float().mean().item(),
    }
