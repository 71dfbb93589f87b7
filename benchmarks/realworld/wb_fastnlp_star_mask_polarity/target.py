"""Tiny Star-Transformer-style text classifier.

Satellite nodes (one per token) attend to their ring neighbours and to a relay node; the relay node
attends to itself and to all satellites. The classifier reads the relay node. `mask` follows the
encoder's documented convention: 1 for real tokens, 0 for padding.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


class StarLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.q1, self.k1, self.v1 = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.q2, self.k2, self.v2 = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.scale = 1.0 / math.sqrt(dim)

    def ring(self, nodes, embs, relay):
        # each satellite attends to left neighbour, itself, right neighbour, its embedding and the relay
        B, L, D = nodes.shape
        h = self.norm(nodes)
        left = F.pad(h, (0, 0, 1, 0))[:, :L]
        right = F.pad(h, (0, 0, 0, 1))[:, 1:]
        ctx = torch.stack([left, h, right, embs, relay.expand(B, L, D)], dim=2)   # B L 5 D
        q = self.q1(h).unsqueeze(2)
        a = torch.softmax((q * self.k1(ctx)).sum(-1) * self.scale, dim=-1)
        return F.leaky_relu((a.unsqueeze(-1) * self.v1(ctx)).sum(2))

    def star(self, relay, nodes, smask):
        keys = torch.cat([relay, nodes], dim=1)                                    # B 1+L D
        s = (self.q2(relay) @ self.k2(keys).transpose(1, 2)) * self.scale          # B 1 1+L
        s = s.masked_fill(smask[:, None, :], float("-inf"))
        return F.leaky_relu(torch.softmax(s, -1) @ self.v2(keys))


class StarClassifier(nn.Module):
    def __init__(self, vocab=50, dim=32, layers=2, classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.layers = nn.ModuleList([StarLayer(dim) for _ in range(layers)])
        self.out = nn.Linear(dim, classes)

    def forward(self, ids, mask):
        B, L = ids.shape
        mask = mask.bool()                      # positions handed to masked_fill below
        smask = torch.cat([torch.zeros(B, 1, dtype=torch.bool), mask], 1)
        embs = self.emb(ids)
        keep = (ids != PAD).float().unsqueeze(-1)
        relay = ((embs * keep).sum(1) / keep.sum(1)).unsqueeze(1)
        nodes = embs
        for layer in self.layers:
            nodes = layer.ring(nodes, embs, relay)
            relay = layer.star(relay, nodes, smask)
            nodes = nodes.masked_fill(mask.unsqueeze(-1), 0.0)
        return self.out(relay.squeeze(1))


def build_batch(n=12, width=14, seed=5):
    g = torch.Generator().manual_seed(seed)
    ids = torch.full((n, width), PAD)
    for i in range(n):
        length = int(torch.randint(3, width - 2, (1,), generator=g))
        ids[i, :length] = torch.randint(1, 50, (length,), generator=g)
    mask = (ids != PAD).long()
    labels = torch.randint(0, 3, (n,), generator=g)
    return ids, mask, labels


def make_target():
    torch.manual_seed(0)
    ids, mask, labels = build_batch()
    return {
        "model": StarClassifier(),
        "batch": ((ids, mask), labels),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
    }
