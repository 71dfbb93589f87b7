"""FastBERT-style text classifier: a (masked) transformer encoder, then a small self-attention classifier head."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, PAD, N_CLS = 100, 0, 3


class AttnClassifier(nn.Module):
    """Per-layer classifier of FastBERT: reduce, self-attend over tokens, pool, classify."""

    def __init__(self, d, d_cls=16):
        super().__init__()
        self.reduce = nn.Linear(d, d_cls)
        self.attn = nn.MultiheadAttention(d_cls, 2, batch_first=True)
        self.out = nn.Linear(d_cls, N_CLS)

    def forward(self, hidden, mask):
        h = torch.tanh(self.reduce(hidden))
        a, _ = self.attn(h, h, h)
        return self.out(a[:, 0])


class FastBertLike(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d, padding_idx=PAD)
        self.pos = nn.Embedding(64, d)
        self.enc = nn.TransformerEncoderLayer(d, 4, 64, dropout=0.0, batch_first=True)
        self.cls = AttnClassifier(d)

    def forward(self, ids, mask):
        pos = torch.arange(ids.shape[1])[None]
        h = self.enc(self.emb(ids) + self.pos(pos), src_key_padding_mask=~mask.bool())
        return self.cls(h, mask)


def _sentences(n, seed, max_len=20):
    g = torch.Generator().manual_seed(seed)
    lens = torch.randint(4, max_len + 1, (n,), generator=g)
    ids = torch.randint(1, VOCAB, (n, max_len), generator=g)
    mask = (torch.arange(max_len)[None] < lens[:, None]).long()
    ids = ids * mask
    y = (ids[:, 1] % N_CLS).long()
    return {"ids": ids, "mask": mask}, y


def make_target():
    torch.manual_seed(0)
    model = FastBertLike()
    model.eval()
    return {
        "model": model,
        "batch": _sentences(16, 1),
        "loss_fn": nn.CrossEntropyLoss(),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "optimizer": lambda params: torch.optim.AdamW(params, lr=2e-4),
        "train_data": _sentences(128, 2),
        "val_data": _sentences(64, 3),
    }
