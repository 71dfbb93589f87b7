"""QANet-style encoder block with a hand-rolled multi-head self-attention, predicting answer-start positions."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class HeadwiseSelfAttention(nn.Module):
    def __init__(self, d_model=32, n_heads=4):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.q_proj = nn.ModuleList([nn.Linear(d_model, self.d_k) for _ in range(n_heads)])
        self.k_proj = nn.ModuleList([nn.Linear(d_model, self.d_k) for _ in range(n_heads)])
        self.v_proj = nn.ModuleList([nn.Linear(d_model, self.d_k) for _ in range(n_heads)])
        self.merge = nn.Linear(d_model, d_model)

    def forward(self, x):
        batch, length, _ = x.shape
        per_head = []
        for h in range(self.n_heads):
            q, k, v = self.q_proj[h](x), self.k_proj[h](x), self.v_proj[h](x)
            w = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(self.d_k), dim=-1)
            per_head.append(w @ v)
        heads = torch.stack(per_head, dim=0)          # (heads, batch, length, d_k)
        merged = heads.view(batch, length, -1)        # heads axis never moved behind length
        return self.merge(merged)


class SpanStartModel(nn.Module):
    def __init__(self, vocab=50, d_model=32, n_heads=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model)
        self.attn = HeadwiseSelfAttention(d_model, n_heads)
        self.norm = nn.LayerNorm(d_model)
        self.start = nn.Linear(d_model, 1)

    def forward(self, tokens):
        h = self.emb(tokens)
        h = self.norm(h + self.attn(h))
        return self.start(h).squeeze(-1)              # (batch, length) start logits


def make_target():
    torch.manual_seed(0)
    model = SpanStartModel()
    tokens = torch.randint(1, 50, (16, 12))
    starts = torch.randint(0, 12, (16,))
    tokens[torch.arange(16), starts] = 0              # answer start marked by a special token
    return {
        "model": model,
        "batch": ((tokens,), starts),
        "loss_fn": lambda logits, y: F.cross_entropy(logits, y),
        "metric_fn": lambda logits, y: (logits.argmax(-1) == y).float().mean().item(),
    }
