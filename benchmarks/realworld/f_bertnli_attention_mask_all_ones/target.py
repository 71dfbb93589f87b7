"""A small transformer sentence classifier fed by a collate helper that builds the attention mask; the
sequences are right-padded to a fixed length."""

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, MAX_LEN = 0, 32


class TinyEncoderClassifier(nn.Module):
    def __init__(self, vocab=12, dim=32, n_classes=3):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(MAX_LEN + 1, dim)
        self.layer = nn.TransformerEncoderLayer(dim, 2, 64, dropout=0.0, batch_first=True)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, input_ids, attention_mask):
        pos = torch.arange(input_ids.shape[1])
        h = self.tok(input_ids) + self.pos(pos)
        h = self.layer(h, src_key_padding_mask=attention_mask == 0)
        return self.head(h[:, 0])  # the [CLS] position


def build_batch(rows):
    """Pad token lists to MAX_LEN and build the attention masks."""
    ids = torch.full((len(rows), MAX_LEN), PAD)
    for i, r in enumerate(rows):
        ids[i, : len(r)] = torch.tensor(r)
    mask = torch.ones_like(ids)
    return {"input_ids": ids, "attention_mask": mask}


def _pairs(n, seed):
    g = torch.Generator().manual_seed(seed)
    rows, labels = [], []
    for _ in range(n):
        length = int(torch.randint(3, 16, (1,), generator=g))
        body = torch.randint(2, 12, (length,), generator=g)
        a, b = int((body == 2).sum()), int((body == 3).sum())
        labels.append(0 if a > b else 1 if a < b else 2)  # more 2s, more 3s, or a tie
        rows.append([1] + body.tolist())  # 1 is [CLS]
    return build_batch(rows), torch.tensor(labels)


def _batches(n, seed, size=32):
    inputs, y = _pairs(n, seed)
    return [({k: v[i : i + size] for k, v in inputs.items()}, y[i : i + size]) for i in range(0, n, size)]


def make_target():
    torch.manual_seed(0)
    return {
        "model": TinyEncoderClassifier(),
        "batch": _pairs(32, 1),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=2e-3),
        "train_data": _batches(2048, 2),
        "val_data": _batches(512, 3),
    }
