"""Continued pretraining of a tiny causal LM on (context, continuation) pairs.

Each example is context tokens (not trained on, label -100) followed by continuation tokens (trained on).
Sequences are cut to MAX_LENGTH before batching.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 64
MAX_LENGTH = 24
IGNORE = -100


class TinyLM(nn.Module):
    def __init__(self, vocab=VOCAB, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, input_ids):
        h, _ = self.rnn(self.emb(input_ids))
        return self.head(h)


def tokenize_pair(context, continuation, max_length=MAX_LENGTH):
    input_ids = list(context) + list(continuation)
    labels = [IGNORE] * len(context) + list(continuation)
    # sequence truncation
    if len(input_ids) > max_length:
        input_ids = input_ids[:max_length]
        labels = labels[:max_length]
    pad = max_length - len(input_ids)
    return input_ids + [0] * pad, labels + [IGNORE] * pad


def build_batch(pairs):
    ids, labels = zip(*(tokenize_pair(c, t) for c, t in pairs))
    return torch.tensor(ids), torch.tensor(labels)


def _pairs(n, ctx_len, cont_len, seed):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n):
        c = torch.randint(1, VOCAB, (ctx_len,), generator=g).tolist()
        start = c[-1]
        t = [(start + k + 1) % (VOCAB - 1) + 1 for k in range(cont_len)]  # learnable continuation
        out.append((c, t))
    return out


def lm_loss(logits, labels):
    # next-token prediction: position t predicts label t+1
    return F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), labels[:, 1:].reshape(-1),
                           ignore_index=IGNORE)


def make_target():
    torch.manual_seed(0)
    # a batch of documents whose context is longer than MAX_LENGTH (long web pages)
    ids, labels = build_batch(_pairs(8, ctx_len=30, cont_len=8, seed=1))
    short = build_batch(_pairs(32, ctx_len=10, cont_len=8, seed=2))
    long_ = build_batch(_pairs(32, ctx_len=30, cont_len=8, seed=3))
    train_ids = torch.cat([short[0], long_[0]])
    train_labels = torch.cat([short[1], long_[1]])
    return {
        "model": TinyLM(),
        "batch": (ids, labels),
        "loss_fn": lm_loss,
        "optimizer": lambda params: torch.optim.AdamW(params, lr=3e-3),
        "train_data": (train_ids, train_labels),
        "causal": True,
    }
