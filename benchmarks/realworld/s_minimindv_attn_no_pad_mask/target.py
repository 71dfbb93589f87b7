"""Tiny decoder LM; padding is ignored in the loss but no padding mask reaches the attention."""
import torch
from torch import nn
import torch.nn.functional as F

PAD = 0


class TinyLM(nn.Module):
    def __init__(self, vocab=40, d=32, heads=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(64, d)
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d, 64), nn.GELU(), nn.Linear(64, d))
        self.out = nn.Linear(d, vocab)

    def forward(self, ids, attention_mask=None):
        T = ids.shape[1]
        h = self.emb(ids) + self.pos(torch.arange(T))
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
        # attention_mask is accepted but never used: padded keys stay visible
        a, _ = self.attn(h, h, h, attn_mask=causal)
        h = h + a
        h = h + self.ff(h)
        return self.out(h)


def _batch():
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(1, 40, (4, 12), generator=g)
    lengths = [12, 9, 6, 4]
    mask = torch.zeros_like(ids)
    for i, n in enumerate(lengths):
        mask[i, :n] = 1
    # left padding (as in generation-style batching) so padding sits before real tokens
    ids = torch.stack([torch.cat([torch.full((12 - n,), PAD), ids[i, :n]]) for i, n in enumerate(lengths)])
    mask = torch.stack([torch.cat([torch.zeros(12 - n, dtype=torch.long), torch.ones(n, dtype=torch.long)]) for n in lengths])
    labels = ids.masked_fill(mask == 0, -100)
    return ids, mask, labels


def loss_fn(logits, labels):
    return F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), labels[:, 1:].reshape(-1), ignore_index=-100)


def make_target():
    torch.manual_seed(0)
    ids, mask, labels = _batch()
    return {
        "model": TinyLM(),
        "batch": ({"ids": ids, "attention_mask": mask}, labels),
        "call_model": lambda m, b: m(b["ids"], attention_mask=b["attention_mask"]),
        "loss_fn": loss_fn,
        "causal": True,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3),
    }
