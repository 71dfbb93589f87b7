"""Tiny LM head fine-tuned with CE + EOS penalties written with softmax followed by log."""
import torch
from torch import nn
import torch.nn.functional as F

V, D, EOS = 40, 16, 0
ALPHA, BETA = 0.5, 0.5


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.proj = nn.Linear(D, D)
        self.head = nn.Linear(D, V)

    def forward(self, ids):
        h = torch.tanh(self.proj(self.emb(ids)))  # (B, T, D)
        return self.head(h)                        # (B, T, V)


def loss_fn(logits, targets):
    next_ids, is_pos = targets                     # (B, T) next tokens, (B,) positive/negative flag
    ce = F.cross_entropy(logits.flatten(0, 1), next_ids.flatten())
    p_eos = F.softmax(logits[:, -1], dim=-1)[:, EOS]           # prob of EOS at the last position
    pos_pen = -torch.log(1 - p_eos[is_pos]).mean()             # positives must not stop here
    neg_pen = -torch.log(p_eos[~is_pos]).mean()                # negatives must stop here
    return ce + ALPHA * pos_pen + BETA * neg_pen


def _batch():
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(1, V, (8, 12), generator=g)
    nxt = torch.roll(ids, -1, dims=1)
    is_pos = torch.tensor([True, False] * 4)
    return ids, (nxt, is_pos)


def make_target():
    torch.manual_seed(0)
    model = TinyLM()
    with torch.no_grad():  # checkpoint after some steps: the EOS logit has grown large for these contexts
        model.head.bias[EOS] = 30.0
    ids, tgt = _batch()
    return {"model": model, "batch": (ids, tgt), "loss_fn": loss_fn,
            "optimizer": lambda p: torch.optim.AdamW(p, lr=2e-5)}
