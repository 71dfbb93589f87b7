"""Word-level GRU language model trained on padded sentence batches (PAD id 0), to compare against an n-gram LM."""

import torch
import torch.nn as nn
import torch.nn.functional as F

V, PAD, T = 60, 0, 24


class GRULM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 32)
        self.rnn = nn.GRU(32, 64, batch_first=True)
        self.out = nn.Linear(64, V)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.out(h)


def lm_loss(logits, targets):
    return F.cross_entropy(logits.reshape(-1, V), targets.reshape(-1))


def sentences(n, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.full((n, T + 1), PAD, dtype=torch.long)
    for i in range(n):
        L = int(torch.randint(4, T // 2, (1,), generator=g))
        ids[i, :L] = torch.randint(1, V, (L,), generator=g)
    return ids[:, :-1], ids[:, 1:]


def make_target():
    torch.manual_seed(0)
    x, y = sentences(32, 1)
    return {
        "model": GRULM(),
        "batch": (x, y),
        "loss_fn": lm_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": [sentences(32, 10 + i) for i in range(10)],
        "val_data": [sentences(64, 99)],
    }
