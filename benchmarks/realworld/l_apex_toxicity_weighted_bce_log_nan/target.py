"""Toxicity classifier (bag-of-tokens encoder + linear head, sigmoid output) trained with a hand-written weighted BCE."""

import torch
import torch.nn as nn

VOCAB = 200


class ToxicityNet(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, d, mode="mean")
        self.head = nn.Linear(d, 1)

    def forward(self, ids):
        return torch.sigmoid(self.head(self.emb(ids))).squeeze(1)


def weighted_bce(y_pred, target):
    y_true, weights = target
    eps = 1e-8
    y_pred = torch.clamp(y_pred, eps, 1 - eps)
    loss = -(weights * (y_true * torch.log(y_pred) + (1 - y_true) * torch.log(1 - y_pred)))
    return loss.mean()


def _comments(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 2, (n,), generator=g).float()
    # toxic comments draw most tokens from the first half of the vocabulary, clean ones from the second half
    lo = torch.randint(0, VOCAB // 2, (n, 12), generator=g)
    ids = torch.where(y[:, None].bool(), lo, lo + VOCAB // 2)
    noise = torch.randint(0, VOCAB, (n, 12), generator=g)
    ids = torch.where(torch.rand(n, 12, generator=g) < 0.2, noise, ids)
    w = 1.0 + torch.rand(n, generator=g)
    return ids, (y, w)


def make_target():
    torch.manual_seed(0)
    return {
        "model": ToxicityNet(),
        "batch": _comments(64, 1),
        "loss_fn": weighted_bce,
        "metric_fn": lambda out, t: ((out > 0.5).float() == t[0]).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=0.05),
        "train_data": _comments(512, 2),
        "val_data": _comments(256, 3),
    }
