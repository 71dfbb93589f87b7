"""Small transformer text encoder with a classifier head. Word-piece id lists are padded into a batch by
pad_batch(); the encoder marks padding as the positions holding the pad value -1 and keeps them out of
attention and pooling."""

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = -1
VOCAB = 50


def pad_batch(seqs, pad_value=PAD):
    width = max(len(s) for s in seqs)
    out = torch.zeros(len(seqs), width, dtype=torch.long)
    for i, s in enumerate(seqs):
        out[i, : len(s)] = torch.as_tensor(s)
    return out


class TextEncoder(nn.Module):
    def __init__(self, dim=32, n_classes=2, max_len=64):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, dim)
        self.pos = nn.Parameter(torch.randn(max_len, dim) * 0.1)
        layer = nn.TransformerEncoderLayer(dim, 4, 64, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = nn.Linear(dim, n_classes)

    def vectors(self, ids):
        pad = ids == PAD
        h = self.emb(ids.clamp_min(0)) + self.pos[: ids.shape[1]]
        h = self.encoder(h, src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).float()
        return (h * keep).sum(1) / keep.sum(1)

    def forward(self, ids):
        return self.head(self.vectors(ids))


def _texts(n, seed):
    g = torch.Generator().manual_seed(seed)
    seqs, labels = [], []
    for _ in range(n):
        length = int(torch.randint(3, 20, (1,), generator=g))
        s = torch.randint(1, VOCAB, (length,), generator=g)
        seqs.append(s.tolist())
        labels.append(int((s < 10).any()))
    return seqs, torch.tensor(labels)


def _batches(n, seed, bs=16):
    seqs, labels = _texts(n, seed)
    return [(pad_batch(seqs[i : i + bs]), labels[i : i + bs]) for i in range(0, n, bs)]


def make_target():
    torch.manual_seed(0)
    return {
        "model": TextEncoder(),
        "batch": _batches(16, 1)[0],
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": _batches(256, 2),
        "val_data": _batches(128, 3),
    }
