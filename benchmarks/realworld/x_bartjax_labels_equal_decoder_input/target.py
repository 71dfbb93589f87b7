"""Tiny seq2seq 'translation' (each target token is a fixed function of the source token at the same position). The
decoder is fed [BOS, dst[:-1]], but the labels are built from the same shifted sequence instead of dst."""

import torch
import torch.nn as nn

V, T, BOS = 24, 10, 0


class TinySeq2Seq(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.src_emb = nn.Embedding(V, d)
        self.dec_emb = nn.Embedding(V, d)
        self.mlp = nn.Sequential(nn.Linear(2 * d, 64), nn.ReLU(), nn.Linear(64, V))

    def forward(self, inputs):
        src, dec_in = inputs
        h = torch.cat([self.src_emb(src), self.dec_emb(dec_in)], -1)
        return self.mlp(h)  # (B, T, V): position t predicts the target token t from src[t] and the previous target


def translate(src):
    return (3 * src + 5) % (V - 1) + 1  # never BOS


def make_batch(g, n=64, buggy=True):
    src = torch.randint(1, V, (n, T), generator=g)
    dst = translate(src)
    dec_in = torch.cat([torch.full((n, 1), BOS), dst[:, :-1]], 1)
    labels = dec_in if buggy else dst
    return (src, dec_in), labels, dst


def seq_ce(logits, labels):
    return nn.functional.cross_entropy(logits.reshape(-1, V), labels.reshape(-1))


def make_target():
    torch.manual_seed(0)
    model = TinySeq2Seq()
    inputs, labels, _ = make_batch(torch.Generator().manual_seed(0))
    return {
        "model": model,
        "batch": (inputs, labels),
        "loss_fn": seq_ce,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
    }
