"""Compressive-memory attention block: old memories are compressed by a strided conv, and an auxiliary attention-
reconstruction loss is meant to train that conv. The compressed memory is detached before the auxiliary loss."""

import torch
import torch.nn as nn
import torch.nn.functional as F

D, MEM, RATIO, V = 32, 16, 4, 16


def attend(q, kv):
    w = F.softmax(q @ kv.transpose(-1, -2) / D ** 0.5, -1)
    return w @ kv


class CompressiveBlock(nn.Module):
    def __init__(self, detach_compressed=True):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.to_q = nn.Linear(D, D)
        self.compress = nn.Conv1d(D, D, RATIO, stride=RATIO)
        self.out = nn.Linear(D, V)
        self.detach_compressed = detach_compressed

    def forward(self, inputs):
        tokens, old_mem = inputs
        x = self.emb(tokens)
        logits = self.out(x + attend(self.to_q(x), old_mem))
        q, mem = self.to_q(x).detach(), old_mem.detach()
        cmem = self.compress(mem.transpose(1, 2)).transpose(1, 2)
        if self.detach_compressed:
            cmem = cmem.detach()
        aux = F.mse_loss(attend(q, cmem), attend(q, mem))
        return logits, aux


def total_loss(output, targets):
    logits, aux = output
    return F.cross_entropy(logits.reshape(-1, V), targets.reshape(-1)) + aux


def make_batch(g, n=16, t=8):
    tokens = torch.randint(0, V, (n, t), generator=g)
    old_mem = torch.randn(n, MEM, D, generator=g)
    return (tokens, old_mem), (tokens + 1) % V


def make_target():
    torch.manual_seed(0)
    model = CompressiveBlock()
    inputs, targets = make_batch(torch.Generator().manual_seed(0))
    return {
        "model": model,
        "batch": (inputs, targets),
        "loss_fn": total_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
    }
