"""Tiny target-side decoder: training uses a causal mask built one way, the decoding routine builds it another way."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, D, T = 24, 32, 10


def causal_mask(size):
    # training-side mask (dataset): 1 where attending is allowed
    mask = torch.triu(torch.ones(1, size, size), diagonal=1).type(torch.int)
    return mask == 0


class TinyDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D)
        self.pos = nn.Embedding(T, D)
        self.q = nn.Linear(D, D)
        self.k = nn.Linear(D, D)
        self.v = nn.Linear(D, D)
        self.ff = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, D))
        self.ln1 = nn.LayerNorm(D)
        self.ln2 = nn.LayerNorm(D)
        self.head = nn.Linear(D, VOCAB)

    def forward(self, tgt, tgt_mask):
        h = self.tok(tgt) + self.pos(torch.arange(tgt.size(1)))
        q, k, v = self.q(h), self.k(h), self.v(h)
        scores = q @ k.transpose(-2, -1) / D ** 0.5
        scores = scores.masked_fill(tgt_mask == 0, -1e9)
        h = self.ln1(h + F.softmax(scores, dim=-1) @ v)
        h = self.ln2(h + self.ff(h))
        return self.head(h)


def decode_mask(size):
    # decoding-side mask (translate script)
    return torch.triu(torch.ones((1, size, size)), diagonal=1).type(torch.int)


def eval_fn(model, batch):
    (tgt, _), _ = batch
    model.eval()
    with torch.no_grad():
        return model(tgt, decode_mask(tgt.size(1)))


def make_target():
    torch.manual_seed(0)
    seq = torch.randint(0, VOCAB, (16, T + 1))
    tgt, labels = seq[:, :-1], seq[:, 1:]
    return {
        "model": TinyDecoder(),
        "batch": ((tgt, causal_mask(T).expand(16, T, T)), labels),
        "loss_fn": lambda logits, y: F.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1)),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "eval_fn": eval_fn,
        "causal": True,
        "sequence_dim": 1,
    }
