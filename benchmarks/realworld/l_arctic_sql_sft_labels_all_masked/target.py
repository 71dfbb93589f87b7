"""Tiny causal LM for SQL autocompletion SFT; labels come from a character-span based assistant mask."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 64


class TinyLM(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.head = nn.Linear(d, VOCAB)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.head(h)


def masked_labels(ids, offsets, spans):
    """Keep a token as a label only when its (start, end) character offsets lie fully inside an assistant span."""
    labels = torch.full_like(ids, -100)
    for b in range(ids.shape[0]):
        for t in range(ids.shape[1]):
            s_tok, e_tok = offsets[b][t]
            for s, e in spans[b]:
                if s_tok >= s and e_tok <= e:
                    labels[b, t] = ids[b, t]
    return labels


def _examples(n, seed, max_completion=3):
    g = torch.Generator().manual_seed(seed)
    T = 24
    ids = torch.randint(1, VOCAB, (n, T), generator=g)
    # every token covers 4 characters; the completion is the last k tokens (short SQL completions), but the
    # tokenizer's offsets for the completion tokens run one character past the assistant text on both sides
    lens = torch.randint(1, max_completion + 1, (n,), generator=g).tolist()
    offsets = [[(4 * t, 4 * t + 4) for t in range(T)] for _ in range(n)]
    spans = [[(4 * (T - k) + 1, 4 * T - 1)] for k in lens]
    labels = masked_labels(ids, offsets, spans)
    shifted = torch.cat([labels[:, 1:], torch.full((n, 1), -100)], dim=1)
    return ids, shifted


def loss_fn(logits, labels):
    return F.cross_entropy(logits.reshape(-1, VOCAB), labels.reshape(-1), ignore_index=-100)


def make_target():
    torch.manual_seed(0)
    return {
        "model": TinyLM(),
        "batch": _examples(8, 1, max_completion=2),
        "loss_fn": loss_fn,
        "optimizer": lambda params: torch.optim.AdamW(params, lr=1e-3),
        "train_data": _examples(64, 2),
        "val_data": _examples(32, 3, max_completion=2),
        "causal": True,
    }
