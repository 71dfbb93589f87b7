"""SFT chat dataset: loss only on the assistant turn; a first prompt longer than max_seq_length truncates every answer away."""

import torch
import torch.nn as nn
import torch.nn.functional as F

V, D = 50, 32


class TinyGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.rnn = nn.GRU(D, D, batch_first=True)
        self.head = nn.Linear(D, V)

    def forward(self, ids):
        return self.head(self.rnn(self.emb(ids))[0])


def build_example(prompt_len, answer_len, max_seq_length, g):
    prompt = torch.randint(2, V, (prompt_len,), generator=g)
    answer = (prompt[:answer_len] + 1) % V
    ids = torch.cat([prompt, answer])[:max_seq_length]
    loss_mask = torch.cat([torch.zeros(prompt_len), torch.ones(answer_len)])[:max_seq_length]
    return ids, loss_mask


def make_batch(max_seq_length=32, prompt_len=40, answer_len=8, n=4):
    g = torch.Generator().manual_seed(1)
    rows = [build_example(prompt_len, answer_len, max_seq_length, g) for _ in range(n)]
    ids = torch.stack([r[0] for r in rows])
    mask = torch.stack([r[1] for r in rows])
    return ids, (ids, mask)


def masked_lm_loss(logits, targets):
    ids, mask = targets
    tok = F.cross_entropy(logits[:, :-1].reshape(-1, V), ids[:, 1:].reshape(-1), reduction="none")
    m = mask[:, 1:].reshape(-1)
    return (tok * m).sum() / m.sum()


def make_target():
    torch.manual_seed(0)
    return {
        "model": TinyGPT(),
        "batch": make_batch(),
        "loss_fn": masked_lm_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
    }
