"""Text classifier with a hand-written multi-head self-attention whose head split/merge uses view() only."""
import math

import torch
from torch import nn
import torch.nn.functional as F

VOCAB, L, CLASSES = 200, 16, 4


class MultiHeadAttention(nn.Module):
    def __init__(self, dim_model=32, num_head=4):
        super().__init__()
        self.num_head, self.dim_head = num_head, dim_model // num_head
        self.q = nn.Linear(dim_model, dim_model)
        self.k = nn.Linear(dim_model, dim_model)
        self.v = nn.Linear(dim_model, dim_model)
        self.out = nn.Linear(dim_model, dim_model)
        self.norm = nn.LayerNorm(dim_model)

    def forward(self, x):
        b = x.size(0)
        Q = self.q(x).view(b * self.num_head, -1, self.dim_head)
        K = self.k(x).view(b * self.num_head, -1, self.dim_head)
        V = self.v(x).view(b * self.num_head, -1, self.dim_head)
        att = F.softmax(Q @ K.transpose(1, 2) / math.sqrt(self.dim_head), dim=-1)
        context = (att @ V).view(b, -1, self.dim_head * self.num_head)
        return self.norm(x + self.out(context))


class TransformerClassifier(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d)
        self.pos = nn.Parameter(torch.randn(L, d) * 0.1)
        self.att = MultiHeadAttention(d)
        self.ffn = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, d))
        self.fc = nn.Linear(d * L, CLASSES)

    def encode(self, ids):
        h = self.att(self.emb(ids) + self.pos)
        return h + self.ffn(h)

    def forward(self, ids):
        return self.fc(self.encode(ids).flatten(1))


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(1, VOCAB, (32, L), generator=g)
    y = ids[:, 0] % CLASSES
    return {
        "model": TransformerClassifier(),
        "batch": (ids, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }
