"""Small transformer encoder classifier with a hand-written multi-head attention block."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, D_MODEL, HEADS, T, CLASSES = 40, 128, 2, 16, 2


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.d_head = d_model // num_heads
        self.query = nn.Linear(d_model, d_model)
        self.key = nn.Linear(d_model, d_model)
        self.value = nn.Linear(d_model, d_model)
        self.linear_proj = nn.Linear(d_model, d_model)
        self.last_attn = None

    def split_heads(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.num_heads, self.d_head).transpose(1, 2)

    def forward(self, x, mask=None):
        q = self.split_heads(self.query(x))
        k = self.split_heads(self.key(x))
        v = self.split_heads(self.value(x))
        scores = torch.matmul(q, k.transpose(-2, -1))
        if mask is not None:
            scores = scores.masked_fill(mask[:, None, None, :] == 0, float("-inf"))
        attn = F.softmax(scores, dim=-1)
        self.last_attn = attn.detach()
        out = torch.matmul(attn, v).transpose(1, 2).reshape(x.shape)
        return self.linear_proj(out)


class EncoderClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D_MODEL)
        self.pos = nn.Parameter(torch.zeros(1, T, D_MODEL))
        self.norm1 = nn.LayerNorm(D_MODEL)
        self.attn = MultiHeadAttention(D_MODEL, HEADS)
        self.norm2 = nn.LayerNorm(D_MODEL)
        self.ff = nn.Sequential(nn.Linear(D_MODEL, 2 * D_MODEL), nn.ReLU(), nn.Linear(2 * D_MODEL, D_MODEL))
        self.head = nn.Linear(D_MODEL, CLASSES)
        for p in self.parameters():
            if p.dim() > 1:
                nn.init.xavier_uniform_(p)

    def forward(self, tokens):
        h = self.embed(tokens) + self.pos[:, : tokens.size(1)]
        h = h + self.attn(self.norm1(h))
        h = h + self.ff(self.norm2(h))
        return self.head(h.mean(dim=1))


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(1, VOCAB, (n, T), generator=g)
    # label: does token 7 appear anywhere in the sequence
    labels = (tokens == 7).any(dim=1).long()
    return tokens, labels


def make_target():
    torch.manual_seed(0)
    x, y = make_data(32, 1)
    tr_x, tr_y = make_data(256, 2)
    va_x, va_y = make_data(128, 3)
    return {
        "model": EncoderClassifier(),
        "batch": (x, y),
        "loss_fn": lambda logits, target: F.cross_entropy(logits, target),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "metric_fn": lambda logits, target: (logits.argmax(-1) == target).float().mean().item(),
        "train_data": (tr_x, tr_y),
        "val_data": (va_x, va_y),
    }
