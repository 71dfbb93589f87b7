"""Tiny DLRM: bottom MLP on dense features, sum-pooled embeddings for sparse features, dot interaction, top MLP."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def create_mlp(ln, sigmoid_layer=-1):
    layers = []
    for i in range(len(ln) - 1):
        n, m = ln[i], ln[i + 1]
        lin = nn.Linear(n, m)
        with torch.no_grad():
            lin.weight.normal_(0.0, math.sqrt(2 / (m + n)))
            lin.bias.normal_(0.0, math.sqrt(1 / m))
        layers.append(lin)
        layers.append(nn.Sigmoid() if i == sigmoid_layer else nn.ReLU())
    return nn.Sequential(*layers)


class TinyDLRM(nn.Module):
    def __init__(self, bot, emb_rows=(10, 10, 10), dim=2):
        super().__init__()
        self.bot_l = bot
        self.emb_l = nn.ModuleList([nn.EmbeddingBag(r, dim, mode="sum") for r in emb_rows])
        n_vec = len(emb_rows) + 1
        self.top_l = create_mlp([dim + n_vec * (n_vec - 1) // 2, 4, 1], sigmoid_layer=1)

    def forward(self, dense, sparse):
        x = self.bot_l(dense)
        ly = [emb(sparse[:, k : k + 1]) for k, emb in enumerate(self.emb_l)]
        t = torch.stack([x] + ly, dim=1)
        z = t @ t.transpose(1, 2)
        li, lj = torch.tril_indices(t.size(1), t.size(1), offset=-1)
        return self.top_l(torch.cat([x, z[:, li, lj]], dim=1)).squeeze(1)


def make_target():
    torch.manual_seed(0)
    bot = create_mlp([4, 8, 2])
    dense = torch.log1p(torch.randint(0, 20, (32, 4)).float())    # log-transformed counts, like Criteo dense
    model = TinyDLRM(bot)
    sparse = torch.randint(0, 10, (32, 3))
    clicks = (dense[:, 0] > 1.5).float()
    return {
        "model": model,
        "batch": ((dense, sparse), clicks),
        "loss_fn": lambda p, y: F.binary_cross_entropy(p, y),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.1),
    }
