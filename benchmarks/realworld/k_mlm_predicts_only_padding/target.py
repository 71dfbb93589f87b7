"""Tiny BERT-style masked language model. Sentences (8-16 tokens) are right-padded to 64 with PAD=0;
15% of the real tokens are replaced by [MASK]; the labels are the original ids at every position."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, PAD, MASK, SEQ = 40, 0, 1, 64


class TinyBert(nn.Module):
    def __init__(self, d=48, layers=2):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, d)
        self.pos = nn.Embedding(SEQ, d)
        layer = nn.TransformerEncoderLayer(d, 4, 96, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.lm = nn.Linear(d, VOCAB)

    def forward(self, ids):
        h = self.tok(ids) + self.pos(torch.arange(ids.shape[1]))
        return self.lm(self.enc(h, src_key_padding_mask=ids == PAD))    # (B, SEQ, VOCAB)


def make_mlm(n, seed):
    """Each sentence repeats a short motif, so a masked token is recoverable from its neighbours."""
    g = torch.Generator().manual_seed(seed)
    ids = torch.full((n, SEQ), PAD)
    for i in range(n):
        length = int(torch.randint(8, 17, (1,), generator=g))
        motif = torch.randint(2, VOCAB, (2,), generator=g)
        ids[i, :length] = motif.repeat(length)[:length]
    labels = ids.clone()
    real = ids != PAD
    masked = real & (torch.rand(n, SEQ, generator=g) < 0.15)
    inputs = ids.masked_fill(masked, MASK)
    return inputs, labels


def mlm_loss(logits, labels):
    return F.cross_entropy(logits.reshape(-1, VOCAB), labels.reshape(-1))


def make_target():
    torch.manual_seed(0)
    return {
        "model": TinyBert(),
        "batch": make_mlm(32, 1),
        "loss_fn": mlm_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": make_mlm(512, 2),
        "val_data": make_mlm(128, 3),
    }
