"""Tiny character-level causal LM on a synthetic 'corpus' with learnable structure (healthy code)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, CTX = 300, 16


class TinyCharLM(nn.Module):
    def __init__(self, vocab=VOCAB, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.prev = nn.Embedding(vocab, dim)
        self.mlp = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        prev_ids = F.pad(ids, (1, 0))[:, :-1]               # previous token only: causal
        h = self.emb(ids) + self.prev(prev_ids)
        h = h + self.mlp(h)
        return self.head(h)


def _corpus(n_seq, seed):
    """Second-order chain: each (prev, cur) pair has 2 plausible successors, entropy ~0.7 nats/char."""
    g = torch.Generator().manual_seed(1234)
    table = torch.randint(0, VOCAB, (VOCAB, 2), generator=g)
    g = torch.Generator().manual_seed(seed)
    seqs = torch.empty(n_seq, CTX + 1, dtype=torch.long)
    seqs[:, 0] = torch.randint(0, VOCAB, (n_seq,), generator=g)
    for t in range(1, CTX + 1):
        pick = torch.randint(0, 2, (n_seq,), generator=g)
        seqs[:, t] = table[seqs[:, t - 1], pick]
    return seqs[:, :-1], seqs[:, 1:]


def lm_loss(logits, targets):
    return F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))


def make_target():
    torch.manual_seed(0)
    x, y = _corpus(32, 1)
    return {
        "model": TinyCharLM(),
        "batch": (x, y),
        "loss_fn": lm_loss,
        "optimizer": lambda params: torch.optim.AdamW(params, lr=2.5e-4),
        "train_data": _corpus(2048, 2),
        "val_data": _corpus(256, 3),
        "causal": True,
    }
