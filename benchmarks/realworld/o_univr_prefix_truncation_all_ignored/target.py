"""Tiny decoder LM fed by an SFT collator that masks the prompt prefix with -100 and then truncates to max_length."""

import torch
from torch import nn
import torch.nn.functional as F

IGNORE = -100
MAX_LEN = 48


def build_sample(prompt, answer, max_length=MAX_LEN):
    input_ids = prompt + answer
    labels = [IGNORE] * len(prompt) + answer
    return input_ids[:max_length], labels[:max_length]


class TinyLM(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.head(h)


def sft_loss(logits, labels):
    return F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), labels[:, 1:].reshape(-1),
                           ignore_index=IGNORE)


def make_batch(seed, prompt_len):
    g = torch.Generator().manual_seed(seed)
    ids, labels = [], []
    for _ in range(2):
        prompt = torch.randint(1, 64, (prompt_len,), generator=g).tolist()  # prompt + image tokens
        answer = torch.randint(1, 64, (12,), generator=g).tolist()
        i, l = build_sample(prompt, answer)
        ids.append(i)
        labels.append(l)
    return torch.tensor(ids), torch.tensor(labels)


def make_target():
    torch.manual_seed(0)
    ids, labels = make_batch(0, prompt_len=60)  # long image prompt: the masked prefix alone exceeds MAX_LEN
    return {
        "model": TinyLM(),
        "batch": (ids, labels),
        "loss_fn": sft_loss,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3),
        "train_data": [make_batch(s, pl) for s, pl in zip(range(1, 9), [20, 30, 60, 25, 70, 15, 55, 35])],
    }
