"""Tiny character-level GPT (one attention head, as in a lecture-style bigram->GPT notebook) whose attention
softmax was accidentally taken over dim=-2 instead of dim=-1."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, BLOCK, EMB = 16, 16, 32


class Head(nn.Module):
    def __init__(self, n_embd, block_size):
        super().__init__()
        self.key = nn.Linear(n_embd, n_embd, bias=False)
        self.query = nn.Linear(n_embd, n_embd, bias=False)
        self.value = nn.Linear(n_embd, n_embd, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))

    def forward(self, x):
        B, T, C = x.shape
        k, q = self.key(x), self.query(x)
        wei = q @ k.transpose(-2, -1) * C**-0.5
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        wei = F.softmax(wei, dim=-2)
        return wei @ self.value(x)


class TinyGPT(nn.Module):
    def __init__(self, vocab_size=VOCAB, n_embd=EMB, block_size=BLOCK):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, n_embd)
        self.pos = nn.Embedding(block_size, n_embd)
        self.sa = Head(n_embd, block_size)
        self.ln = nn.LayerNorm(n_embd)
        self.ffwd = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.ReLU(), nn.Linear(4 * n_embd, n_embd))
        self.lm_head = nn.Linear(n_embd, vocab_size)

    def forward(self, idx):
        B, T = idx.shape
        x = self.tok(idx) + self.pos(torch.arange(T, device=idx.device))
        x = x + self.sa(x)
        x = x + self.ffwd(self.ln(x))
        return self.lm_head(x)


def get_batch(gen, batch_size=32):
    data = torch.randint(0, VOCAB, (batch_size, BLOCK + 1), generator=gen)
    return data[:, :-1], data[:, 1:]


def loss_fn(logits, targets):
    return F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    model = TinyGPT()
    x, y = get_batch(g)
    val = [get_batch(g, 64) for _ in range(2)]
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=3e-3),
        "val_data": val,
        "causal": True,
    }
