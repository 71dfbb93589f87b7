"""Toy German->English seq2seq: LSTM encoder/decoder with Luong dot-product attention."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

SRC_V, TGT_V, HID, SRC_T, TGT_T = 40, 40, 256, 10, 8


class LuongSeq2Seq(nn.Module):
    def __init__(self, src_vocab=SRC_V, tgt_vocab=TGT_V, hidden=HID):
        super().__init__()
        self.src_emb = nn.Embedding(src_vocab, hidden)
        self.tgt_emb = nn.Embedding(tgt_vocab, hidden)
        self.encoder = nn.LSTM(hidden, hidden, batch_first=True)
        self.decoder = nn.LSTM(hidden, hidden, batch_first=True)
        self.combine = nn.Linear(2 * hidden, hidden)
        self.out = nn.Linear(hidden, tgt_vocab)
        self.last_attention = None

    def forward(self, src, tgt_in):
        enc, state = self.encoder(self.src_emb(src))           # (B, S, H)
        dec, _ = self.decoder(self.tgt_emb(tgt_in), state)      # (B, T, H)
        scores = torch.bmm(dec, enc.transpose(1, 2))            # (B, T, S) raw dot products
        attn = F.softmax(scores, dim=-1)
        self.last_attention = attn.detach()
        context = torch.bmm(attn, enc)
        h = torch.tanh(self.combine(torch.cat([dec, context], dim=-1)))
        return self.out(h)


def _pairs(n, seed):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(3, SRC_V, (n, SRC_T), generator=g)
    tgt = (src[:, :TGT_T].flip(1) + 1) % TGT_V                # target depends on early source tokens
    tgt_in = torch.cat([torch.ones(n, 1, dtype=torch.long), tgt[:, :-1]], dim=1)
    return (src, tgt_in), tgt


def make_target():
    torch.manual_seed(0)
    (src, tgt_in), tgt = _pairs(32, 1)
    return {
        "model": LuongSeq2Seq(),
        "batch": ((src, tgt_in), tgt),
        "loss_fn": lambda logits, y: F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1)),
        "metric_fn": lambda logits, y: (logits.argmax(-1) == y).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": _pairs(256, 2),
        "val_data": _pairs(64, 3),
    }
