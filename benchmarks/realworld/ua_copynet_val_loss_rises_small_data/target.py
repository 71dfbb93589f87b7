"""Small GRU sequence-to-sequence tagger trained on a small, noisy parallel set.

The code is ordinary: fresh hidden state per batch, train/eval modes handled, mean token cross-entropy.
The training set is just small next to the model's capacity, and the targets are noisy.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, T = 24, 8
PERM = torch.randperm(VOCAB, generator=torch.Generator().manual_seed(7))


class Seq2Seq(nn.Module):
    def __init__(self, vocab=VOCAB, emb=32, hidden=96):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.enc = nn.GRU(emb, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, vocab)

    def forward(self, src):
        y, _ = self.enc(self.emb(src))
        return self.out(y)


def make_split(n, seed, noise=0.35):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(1, VOCAB, (n, T), generator=g)
    tgt = PERM[src]  # each source token has a fixed output token ...
    flip = torch.rand(n, T, generator=g) < noise  # ... except for noisy references
    tgt[flip] = torch.randint(1, VOCAB, (int(flip.sum()),), generator=g)
    return src, tgt


def loss_fn(logits, tgt):
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt.reshape(-1))


def make_target():
    torch.manual_seed(0)
    train = make_split(48, 1)
    val = make_split(256, 2)
    return {
        "model": Seq2Seq(),
        "batch": train,
        "loss_fn": loss_fn,
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": [train],
        "val_data": [val],
    }
