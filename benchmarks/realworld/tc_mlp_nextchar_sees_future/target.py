"""Next-character prediction with an MLP over a fixed window: one logit vector per position."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, T = 16, 8


class WindowMLP(nn.Module):
    def __init__(self, vocab=VOCAB, seq_len=T, emb=8, hidden=128):
        super().__init__()
        self.seq_len, self.vocab = seq_len, vocab
        self.emb = nn.Embedding(vocab, emb)
        self.mlp = nn.Sequential(nn.Linear(seq_len * emb, hidden), nn.ReLU(), nn.Linear(hidden, seq_len * vocab))

    def forward(self, x):                       # x: (B, T) character ids
        h = self.emb(x).flatten(1)              # the whole window, every position
        return self.mlp(h).view(x.size(0), self.seq_len, self.vocab)


def loss_fn(logits, y):
    return F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1))


def metric_fn(logits, y):
    return (logits.argmax(-1) == y).float().mean().item()


def make_target():
    torch.manual_seed(0)
    stream = torch.randint(0, VOCAB, (256, T + 1))
    x, y = stream[:, :-1], stream[:, 1:]        # label at t is the character at t+1
    return {
        "model": WindowMLP(),
        "batch": (x, y),
        "loss_fn": loss_fn,
        "metric_fn": metric_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "causal": True,
        "sequence_dim": 1,
    }
