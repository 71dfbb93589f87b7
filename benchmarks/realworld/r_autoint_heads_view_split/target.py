"""AutoInt-style CTR model: self-attention over field embeddings, heads split as in the reported layer."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FieldAttention(nn.Module):
    def __init__(self, dim=16, heads=4):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.q = nn.Linear(dim, dim, bias=False)
        self.k = nn.Linear(dim, dim, bias=False)
        self.v = nn.Linear(dim, dim, bias=False)
        self.res = nn.Linear(dim, dim, bias=False)

    def forward(self, x):  # x: (B, F, D)
        b = x.size(0)
        q = self.q(x).view(b * self.heads, -1, self.head_dim)
        k = self.k(x).view(b * self.heads, -1, self.head_dim)
        v = self.v(x).view(b * self.heads, -1, self.head_dim)
        att = torch.softmax(q @ k.transpose(1, 2) / self.head_dim ** 0.5, dim=-1)
        out = (att @ v).view(b, -1, self.heads * self.head_dim)
        return F.relu(out + self.res(x))


class AutoInt(nn.Module):
    def __init__(self, n_fields=6, vocab=50, dim=16, heads=4):
        super().__init__()
        self.emb = nn.Embedding(n_fields * vocab, dim)
        self.offsets = nn.Parameter(torch.arange(n_fields) * vocab, requires_grad=False)
        self.att = FieldAttention(dim, heads)
        self.out = nn.Linear(n_fields * dim, 1)

    def forward(self, ids):  # ids: (B, F) categorical values per field
        e = self.emb(ids + self.offsets)
        return self.out(self.att(e).flatten(1)).squeeze(-1)


def make_target():
    torch.manual_seed(0)
    ids = torch.randint(0, 50, (64, 6))
    y = ((ids[:, 0] + ids[:, 3]) % 2).float()
    return {
        "model": AutoInt(),
        "batch": (ids, y),
        "loss_fn": nn.BCEWithLogitsLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }
