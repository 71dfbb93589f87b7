"""Tiny causal LM; short samples right-padded with the end token, and the labels padded the same way."""

import torch
from torch import nn
import torch.nn.functional as F

VOCAB, END, MAX_LEN = 64, 2, 40


class TinyLM(nn.Module):
    def __init__(self, vocab=VOCAB, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.head(h)


def collate(samples, max_length=MAX_LEN):
    input_ids, labels = [], []
    for ids in samples:
        ids = ids[:max_length]
        pad = max_length - len(ids)
        input_ids.append(ids + [END] * pad)
        labels.append(ids + [END] * pad)  # padding kept as real targets
    return torch.tensor(input_ids), torch.tensor(labels)


def make_samples(n=48, seed=0):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n):
        length = int(torch.randint(5, 12, (1,), generator=g))
        out.append([1] + torch.randint(3, VOCAB, (length,), generator=g).tolist() + [END])
    return out


def lm_loss(logits, labels):
    return F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), labels[:, 1:].reshape(-1), ignore_index=-100)


def make_target():
    torch.manual_seed(0)
    ids, labels = collate(make_samples())
    return {
        "model": TinyLM(),
        "batch": (ids, labels),
        "loss_fn": lm_loss,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=5e-3),
        "causal": True,
    }
