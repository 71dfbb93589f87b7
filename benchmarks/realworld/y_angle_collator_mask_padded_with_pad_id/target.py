"""Sentence-embedding collator + tiny encoder: the attention mask is padded with the pad id (1, RoBERTa-style)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

V, D, PAD_ID = 100, 32, 1  # RoBERTa-like vocabulary: <pad> has id 1


def pad_like_ids(rows, length, pad_value):
    return torch.tensor([r + [pad_value] * (length - len(r)) for r in rows])


def collate(features):
    """Pads ids and masks to the longest row; the mask goes through the same padding as the ids."""
    length = max(len(f["input_ids"]) for f in features)
    return {
        "input_ids": pad_like_ids([f["input_ids"] for f in features], length, PAD_ID),
        "attention_mask": pad_like_ids([f["attention_mask"] for f in features], length, PAD_ID),
    }


class TinyEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.attn = nn.MultiheadAttention(D, 4, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(D, D), nn.GELU(), nn.Linear(D, D))

    def forward(self, input_ids, attention_mask):
        h = self.emb(input_ids)
        keep = attention_mask.bool()
        a, _ = self.attn(h, h, h, key_padding_mask=~keep)
        h = h + a
        h = h + self.ff(h)
        m = keep.unsqueeze(-1).float()
        return (h * m).sum(1) / m.sum(1)  # mean pooling over the "real" tokens


def features(rows):
    return [{"input_ids": r, "attention_mask": [1] * len(r)} for r in rows]


def make_pairs(g, n=16):
    a, b = [], []
    for _ in range(n):
        length = int(torch.randint(3, 12, (1,), generator=g))
        ids = torch.randint(4, V, (length,), generator=g).tolist()
        a.append(ids)
        b.append(ids[::-1])  # paraphrase stand-in: same words, other order
    return a, b


def cosine_loss(outputs, targets):
    ea, eb = outputs
    return (1 - F.cosine_similarity(ea, eb)).mean()


def make_target():
    torch.manual_seed(0)
    a, b = make_pairs(torch.Generator().manual_seed(0))
    return {
        "model": TinyEncoder(),
        "batch": ((collate(features(a)), collate(features(b))), torch.ones(len(a))),
        "loss_fn": cosine_loss,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3),
    }
