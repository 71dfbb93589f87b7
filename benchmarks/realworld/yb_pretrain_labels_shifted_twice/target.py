"""Tiny decoder-only LM with an in-model causal-LM loss, and the pretraining dataset that feeds it."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset

VOCAB = 16
SEQ = 33


class PTMDataset(Dataset):
    def __init__(self, samples):
        self.samples = samples

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, idx):
        sample = self.samples[idx]
        X = sample[:-1].long()
        Y = sample[1:].long()
        return X, Y


class Block(nn.Module):
    def __init__(self, d, n_head):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, n_head, batch_first=True)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        T = x.shape[1]
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool, device=x.device), 1)
        h = self.ln1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


class TinyLLM(nn.Module):
    def __init__(self, vocab=VOCAB, d=32, n_head=2, n_layer=1, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList([Block(d, n_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids, labels=None):
        pos = torch.arange(input_ids.shape[1], device=input_ids.device)
        x = self.tok(input_ids) + self.pos(pos)
        for blk in self.blocks:
            x = blk(x)
        logits = self.lm_head(self.ln_f(x))
        loss = None
        if labels is not None:
            shift_logits = logits[..., :-1, :].contiguous()
            shift_labels = labels[..., 1:].contiguous()
            loss = F.cross_entropy(shift_logits.view(-1, shift_logits.size(-1)), shift_labels.view(-1))
        return {"logits": logits, "loss": loss}


def make_corpus(n, seed):
    """Token streams from a simple Markov source: next = (3 * cur + c) % VOCAB, c drawn from {1, 2}."""
    g = torch.Generator().manual_seed(seed)
    seqs = torch.zeros(n, SEQ, dtype=torch.long)
    seqs[:, 0] = torch.randint(0, VOCAB, (n,), generator=g)
    for t in range(1, SEQ):
        c = torch.randint(1, 3, (n,), generator=g)
        seqs[:, t] = (3 * seqs[:, t - 1] + c) % VOCAB
    return seqs


def _collate(ds):
    X, Y = zip(*[ds[i] for i in range(len(ds))])
    return torch.stack(X), torch.stack(Y)


def make_target():
    torch.manual_seed(0)
    X, Y = _collate(PTMDataset(make_corpus(32, seed=0)))
    vX, vY = _collate(PTMDataset(make_corpus(32, seed=1)))
    return {
        "model": TinyLLM(),
        "batch": ({"input_ids": X, "labels": Y}, Y),
        "loss_fn": lambda out, y: out["loss"],
        "optimizer": lambda params: torch.optim.AdamW(params, lr=3e-3),
        "val_data": [({"input_ids": vX, "labels": vY}, vY)],
        "causal": True,
    }
