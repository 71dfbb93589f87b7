"""Assembly-function embedder (BERT-like encoder + mean pooling), fine-tuned as a function-family classifier.

Batches are built the way our pipeline does it: each function's instruction tokens are padded by hand to the
longest function, then the batch goes through a second generic `pad_features` step (our copy of a tokenizer's
`pad`) that rounds the length up to a multiple of 8.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD_ID = 0
VOCAB = 64


def encode_functions(token_lists):
    """Manual padding to the longest function; returns ids and the matching mask."""
    longest = max(len(t) for t in token_lists)
    ids = [t + [PAD_ID] * (longest - len(t)) for t in token_lists]
    mask = [[1] * len(t) + [0] * (longest - len(t)) for t in token_lists]
    return {"input_ids": ids, "attention_mask": mask}


def pad_features(features, multiple_of=8):
    """Generic padding step run by the collator (mirrors tokenizer.pad)."""
    ids = features["input_ids"]
    length = int(math.ceil(max(len(r) for r in ids) / multiple_of) * multiple_of)
    padded = [r + [PAD_ID] * (length - len(r)) for r in ids]
    # mask for the new length
    mask = [[1] * len(r) + [0] * (length - len(r)) for r in ids]
    return {"input_ids": torch.tensor(padded), "attention_mask": torch.tensor(mask)}


def collate(token_lists):
    return pad_features(encode_functions(token_lists))


class SelfAttentionBlock(nn.Module):
    def __init__(self, d, n_heads):
        super().__init__()
        self.h, self.dk = n_heads, d // n_heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x, attention_mask):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).chunk(3, dim=-1)
        q, k, v = (z.view(b, t, self.h, self.dk).transpose(1, 2) for z in (q, k, v))
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.dk)
        scores = scores.masked_fill(attention_mask[:, None, None, :] == 0, float("-inf"))
        att = scores.softmax(dim=-1) @ v
        x = x + self.out(att.transpose(1, 2).reshape(b, t, d))
        return x + self.ff(self.ln2(x))


class AsmEncoder(nn.Module):
    def __init__(self, vocab=VOCAB, d=32, n_heads=4, n_layers=2, max_len=64, n_families=5):
        super().__init__()
        self.tok = nn.Embedding(vocab, d, padding_idx=PAD_ID)
        self.pos = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList(SelfAttentionBlock(d, n_heads) for _ in range(n_layers))
        self.head = nn.Linear(d, n_families)

    def embed(self, input_ids, attention_mask):
        pos = torch.arange(input_ids.shape[1], device=input_ids.device)
        x = self.tok(input_ids) + self.pos(pos)[None]
        for blk in self.blocks:
            x = blk(x, attention_mask)
        m = attention_mask.unsqueeze(-1).float()
        return (x * m).sum(1) / m.sum(1).clamp(min=1.0)

    def forward(self, input_ids, attention_mask):
        return self.head(self.embed(input_ids, attention_mask))


def make_functions(n, seed):
    g = torch.Generator().manual_seed(seed)
    funcs, fams = [], []
    for _ in range(n):
        fam = int(torch.randint(0, 5, (1,), generator=g))
        length = int(torch.randint(5, 20, (1,), generator=g))
        toks = (torch.randint(1, VOCAB, (length,), generator=g) // 5 * 5 + fam).clamp(1, VOCAB - 1)
        funcs.append(toks.tolist())
        fams.append(fam)
    return funcs, torch.tensor(fams)


def make_target():
    torch.manual_seed(0)
    funcs, fams = make_functions(16, seed=1)
    batch = collate(funcs)
    val_funcs, val_fams = make_functions(16, seed=2)
    return {
        "model": AsmEncoder(),
        "batch": (batch, fams),
        "loss_fn": lambda logits, y: F.cross_entropy(logits, y),
        "val_data": [(collate(val_funcs), val_fams)],
        "optimizer": lambda p: torch.optim.AdamW(p, lr=3e-4),
    }
