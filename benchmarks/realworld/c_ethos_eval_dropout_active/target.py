"""Small token model for patient event sequences; evaluation runs under no_grad but never calls model.eval()."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, T = 40, 16


class EventModel(nn.Module):
    def __init__(self, d=48, p_drop=0.3):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d)
        self.drop = nn.Dropout(p_drop)
        self.mix = nn.Linear(d, d)
        self.head = nn.Linear(d, VOCAB)

    def forward(self, ids):
        h = self.drop(self.emb(ids))
        h = self.drop(F.gelu(self.mix(h)))
        return self.head(h)


def estimate_loss(model, batch):
    ids, targets = batch
    with torch.no_grad():  # no model.eval(): dropout is still on
        logits = model(ids)
    return F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))


def _seqs(n, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, VOCAB, (n, T + 1), generator=g)
    for t in range(1, T + 1):
        ids[:, t] = (ids[:, t - 1] * 3 + 1) % VOCAB  # deterministic next event
    return ids[:, :-1], ids[:, 1:]


def make_target():
    torch.manual_seed(0)
    x, y = _seqs(16, 1)
    return {
        "model": EventModel(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out.reshape(-1, VOCAB), t.reshape(-1)),
        "eval_fn": lambda model, batch: estimate_loss(model, batch),
        "optimizer": lambda params: torch.optim.AdamW(params, lr=3e-3),
        "train_data": _seqs(64, 2),
        "val_data": _seqs(32, 3),
    }
