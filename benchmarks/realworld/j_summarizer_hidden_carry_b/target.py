"""GRU encoder that keeps its hidden state on the module and reuses it for the next batch (sequence classification stand-in)."""

import torch
import torch.nn as nn

VOCAB, LEN = 30, 12


class Encoder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, dim)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, 2)
        self.hidden = None

    def forward(self, ids):
        if self.hidden is None or self.hidden.shape[1] != ids.shape[0]:
            self.hidden = torch.zeros(1, ids.shape[0], self.gru.hidden_size)
        out, h = self.gru(self.emb(ids), self.hidden)
        self.hidden = h.detach()  # carried into the next batch
        return self.head(out[:, -1])


def articles(n, seed):
    """Label: whether token 3 occurs in the first half of the sequence."""
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(4, VOCAB, (n, LEN), generator=g)
    y = torch.randint(0, 2, (n,), generator=g)
    pos = torch.randint(0, LEN // 2, (n,), generator=g)
    ids[y == 1, pos[y == 1]] = 3
    return ids, y


def make_target():
    torch.manual_seed(0)
    return {
        "model": Encoder(),
        "batch": articles(32, 1),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": articles(1024, 2),
        "val_data": articles(256, 3),
    }
