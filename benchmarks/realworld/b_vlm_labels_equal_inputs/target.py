"""Causal LM whose caption labels are the input ids themselves, with an unshifted loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 50


class TinyCaptionLM(nn.Module):
    def __init__(self, vocab=VOCAB, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.head(h)


def no_shift_loss(logits, labels):
    """The trainer's loss expects labels already aligned to 'next token'."""
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=-100)


def tokenize_and_mask(ids, pad_len):
    n, length = ids.shape
    input_ids = torch.zeros(n, pad_len, dtype=torch.long)
    input_ids[:, :length] = ids
    labels = input_ids.clone()  # BUG: should be input_ids shifted left by one (last real position -100)
    labels[:, length:] = -100
    return input_ids, labels


def make_target():
    torch.manual_seed(0)
    ids = torch.randint(1, VOCAB, (32, 10))  # caption tokens
    input_ids, labels = tokenize_and_mask(ids, pad_len=12)
    return {
        "model": TinyCaptionLM(),
        "batch": (input_ids, labels),
        "loss_fn": no_shift_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "causal": True,
    }
