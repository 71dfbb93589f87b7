"""Tiny autoregressive LaTeX decoder; targets padded with PAD=0, loss over every position."""
import torch
import torch.nn.functional as F
from torch import nn

PAD = 0


class TinyDecoder(nn.Module):
    def __init__(self, vocab=40, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, vocab)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.out(h)


def make_batch(g, b=16, t=24, vocab=40):
    lens = torch.randint(4, t, (b,), generator=g)
    lens[0] = t
    seq = torch.randint(1, vocab, (b, t), generator=g)
    mask = torch.arange(t)[None, :] < lens[:, None]
    return seq.masked_fill(~mask, PAD)


def loss_fn(logits, seq):
    # seq: full padded sequence; predict seq[:,1:] from seq[:,:-1]
    return F.cross_entropy(logits[:, :-1].transpose(1, 2), seq[:, 1:])


def make_target():
    torch.manual_seed(0)
    seq = make_batch(torch.Generator().manual_seed(0))
    return {
        "model": TinyDecoder(),
        "batch": (seq, seq),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "causal": True,
    }
