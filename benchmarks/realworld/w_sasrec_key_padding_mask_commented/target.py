"""Small SASRec-style next-item model: left-padded sequences, causal self-attention, padding keys not masked."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ITEMS = 60


class SASRec(nn.Module):
    def __init__(self, n_items=N_ITEMS, d=32, maxlen=20, heads=2, mask_padding=False):
        super().__init__()
        self.item_emb = nn.Embedding(n_items + 1, d, padding_idx=0)
        self.pos_emb = nn.Embedding(maxlen, d)
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d))
        self.mask_padding = mask_padding

    def forward(self, seq):
        L = seq.shape[1]
        pad = seq == 0
        x = self.item_emb(seq) * self.item_emb.embedding_dim ** 0.5 + self.pos_emb(torch.arange(L))
        x = x * (~pad).unsqueeze(-1)  # timeline mask: padding rows zeroed
        causal = torch.ones(L, L, dtype=torch.bool).triu(1)
        q = self.ln1(x)
        a, _ = self.attn(q, x, x, attn_mask=causal,
                         key_padding_mask=pad if self.mask_padding else None)
        x = q + a
        x = x + self.ff(self.ln2(x))
        x = x * (~pad).unsqueeze(-1)
        return x[:, -1] @ self.item_emb.weight[1:].T  # scores for items 1..n at the last position


def left_pad(hist, maxlen):
    return torch.tensor([0] * (maxlen - len(hist)) + hist[-maxlen:])


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    seqs, nxt = [], []
    for _ in range(32):
        n = int(torch.randint(3, 15, (1,), generator=g))
        h = torch.randint(1, N_ITEMS + 1, (n + 1,), generator=g).tolist()
        seqs.append(left_pad(h[:-1], 20))
        nxt.append(h[-1] - 1)
    return {
        "model": SASRec(),
        "batch": (torch.stack(seqs), torch.tensor(nxt)),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }
