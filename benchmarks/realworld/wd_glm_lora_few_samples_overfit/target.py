"""Tiny causal LM fine-tuned on a handful of instruction/response sequences (healthy training code)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, D, T, LAYERS = 512, 64, 32, 2


class TinyCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D)
        self.pos = nn.Embedding(T, D)
        layer = nn.TransformerEncoderLayer(D, nhead=4, dim_feedforward=4 * D, dropout=0.0,
                                           batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, LAYERS, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(D)
        self.lm_head = nn.Linear(D, VOCAB, bias=False)

    def forward(self, ids):
        t = ids.size(1)
        h = self.tok(ids) + self.pos(torch.arange(t, device=ids.device))
        mask = torch.triu(torch.full((t, t), float("-inf"), device=ids.device), diagonal=1)
        h = self.blocks(h, mask=mask, is_causal=True)
        return self.lm_head(self.norm(h))


def _markov_corpus(n, seed):
    """Sequences from a fixed sparse Markov chain: each token has 8 plausible successors."""
    g = torch.Generator().manual_seed(1234)
    succ = torch.randint(0, VOCAB, (VOCAB, 8), generator=g)
    g = torch.Generator().manual_seed(seed)
    seqs = torch.empty(n, T, dtype=torch.long)
    seqs[:, 0] = torch.randint(0, VOCAB, (n,), generator=g)
    for j in range(1, T):
        pick = torch.randint(0, 8, (n,), generator=g)
        seqs[:, j] = succ[seqs[:, j - 1], pick]
    return seqs


def lm_loss(logits, ids):
    return F.cross_entropy(logits[:, :-1].reshape(-1, VOCAB), ids[:, 1:].reshape(-1))


def make_target():
    torch.manual_seed(0)
    train_ids = _markov_corpus(12, seed=1)      # the whole fine-tuning set: 12 examples
    val_ids = _markov_corpus(64, seed=2)
    return {
        "model": TinyCausalLM(),
        "batch": (train_ids, train_ids),
        "loss_fn": lm_loss,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=3e-3),
        "train_data": [(train_ids, train_ids)],
        "val_data": [(val_ids, val_ids)],
        "causal": True,
    }
