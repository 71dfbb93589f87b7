"""Tiny word-level LM on nn.TransformerEncoder, trained to predict token t+1 at position t, with no src_mask."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, T = 20, 12


class TinyLM(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d)
        self.pos = nn.Parameter(0.1 * torch.randn(T + 1, d))
        layer = nn.TransformerEncoderLayer(d, nhead=2, dim_feedforward=64, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.head = nn.Linear(d, VOCAB)

    def forward(self, tokens, src_mask=None):
        h = self.emb(tokens) + self.pos[: tokens.shape[1]]
        return self.head(self.encoder(h, mask=src_mask))


def _text(n, seed):
    g = torch.Generator().manual_seed(seed)
    seq = torch.randint(0, VOCAB, (n, T + 1), generator=g)  # random tokens: chance is the best possible
    return seq, seq[:, 1:]


def lm_loss(logits, nxt):
    return F.cross_entropy(logits[:, :-1].reshape(-1, VOCAB), nxt.reshape(-1))


def make_target():
    torch.manual_seed(0)
    x, y = _text(16, 1)
    return {
        "model": TinyLM(),
        "batch": (x, y),
        "loss_fn": lm_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": _text(2048, 2),
        "val_data": _text(64, 3),
    }
