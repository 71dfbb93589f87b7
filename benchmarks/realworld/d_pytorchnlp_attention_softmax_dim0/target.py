"""Attention-pooling sequence classifier: a learned query attends over the context with dot-product scores."""

import torch
import torch.nn as nn
import torch.nn.functional as F

D, T = 16, 8


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.linear_out = nn.Linear(dim * 2, dim)
        self.softmax = nn.Softmax(dim=0)

    def forward(self, query, context):
        batch_size, output_len, dim = query.size()
        query_len = context.size(1)
        scores = torch.bmm(query, context.transpose(1, 2).contiguous())
        scores = scores.view(batch_size * output_len, query_len)
        weights = self.softmax(scores).view(batch_size, output_len, query_len)
        mix = torch.bmm(weights, context)
        out = torch.tanh(self.linear_out(torch.cat((mix, query), dim=2)))
        return out, weights


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(4, D)
        self.query = nn.Parameter(torch.randn(1, 1, D) * 0.5)
        self.attn = Attention(D)
        self.head = nn.Linear(D, 2)

    def forward(self, x):
        context = self.embed(x)
        out, _ = self.attn(self.query.expand(x.size(0), 1, D), context)
        return self.head(out.squeeze(1))


def _sequences(n, seed):
    """One position in each sequence carries a marker; the label is the sign of the value stored next to it."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, T, 4, generator=g) * 0.5
    where = torch.randint(0, T, (n,), generator=g)
    x[torch.arange(n), where, 0] = 3.0
    y = (x[torch.arange(n), where, 1] > 0).long()
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = _sequences(32, 1)
    return {
        "model": Classifier(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": _sequences(2048, 2),
        "val_data": _sequences(512, 3),
    }
