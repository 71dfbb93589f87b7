"""Word-level Transformer LM (sequence-first, as in pytorch/examples) whose square subsequent mask is flipped."""

import math

import torch
import torch.nn as nn

V, D, T, B = 50, 32, 16, 16


def subsequent_mask(sz, flipped=True):
    allowed = torch.triu(torch.ones(sz, sz)) == 1  # allowed[i, j] for j >= i
    if not flipped:
        allowed = allowed.transpose(0, 1)  # allowed[i, j] for j <= i
    return torch.zeros(sz, sz).masked_fill(~allowed, float("-inf"))


class TransformerLM(nn.Module):
    def __init__(self, flipped=True):
        super().__init__()
        self.flipped = flipped
        self.embed = nn.Embedding(V, D)
        self.pos = nn.Parameter(torch.randn(T, 1, D) * 0.1)
        layer = nn.TransformerEncoderLayer(D, 4, 64, dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False)
        self.decoder = nn.Linear(D, V)

    def forward(self, src):  # (T, B) token ids
        mask = subsequent_mask(src.shape[0], self.flipped)
        h = self.embed(src) * math.sqrt(D) + self.pos[: src.shape[0]]
        return self.decoder(self.encoder(h, mask=mask))  # (T, B, V)


def lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits.reshape(-1, V), targets.reshape(-1))


def get_batch(g):
    data = torch.randint(0, V, (T + 1, B), generator=g)  # i.i.d. tokens: next token is unpredictable
    return data[:-1], data[1:]


def make_target():
    torch.manual_seed(0)
    src, tgt = get_batch(torch.Generator().manual_seed(0))
    return {
        "model": TransformerLM(),
        "batch": (src, tgt),
        "loss_fn": lm_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "batch_axis": 1,
        "causal": True,
        "sequence_dim": 0,
    }
