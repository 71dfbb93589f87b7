"""A tiny causal LM fine-tuned on prompt/response pairs; prompt tokens are labelled -100 and sequences are
truncated to MAX_LEN, so a batch of long prompts can lose every response token."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, MAX_LEN, IGNORE = 50, 16, -100


class TinyLM(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, VOCAB)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.out(h)


def _examples(n, prompt_len, seed):
    g = torch.Generator().manual_seed(seed)
    ids, labels = [], []
    for _ in range(n):
        prompt = torch.randint(1, VOCAB, (prompt_len,), generator=g)
        resp = (prompt[:6].flip(0) % (VOCAB - 1)) + 1
        seq = torch.cat([prompt, resp])[:MAX_LEN]
        lab = torch.cat([torch.full((prompt_len,), IGNORE), resp])[:MAX_LEN]
        ids.append(seq)
        labels.append(lab)
    return torch.stack(ids), torch.stack(labels)


def sft_loss(logits, labels):
    # shift: position t predicts token t+1
    return F.cross_entropy(logits[:, :-1].reshape(-1, VOCAB), labels[:, 1:].reshape(-1), ignore_index=IGNORE)


def make_target():
    torch.manual_seed(0)
    short = _examples(96, 10, 1)
    long_prompts = _examples(16, 18, 2)  # prompt longer than MAX_LEN: no response token survives truncation
    x = torch.cat([short[0], long_prompts[0]])
    y = torch.cat([short[1], long_prompts[1]])
    return {
        "model": TinyLM(),
        "batch": long_prompts,
        "loss_fn": sft_loss,
        "optimizer": lambda params: torch.optim.AdamW(params, lr=3e-3),
        "train_data": (x, y),
        "val_data": _examples(32, 10, 3),
    }
