"""Single-head causal self-attention decoder with a KV cache, written from the blog snippet (d_k = 64)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def attention(Q, K, V, causal=True):
    scores = Q @ K.transpose(-2, -1)
    if causal:
        t_q, t_k = Q.size(-2), K.size(-2)
        mask = torch.ones(t_q, t_k, dtype=torch.bool).tril(diagonal=t_k - t_q)
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = F.softmax(scores, dim=-1)
    return weights @ V


class CachedDecoder(nn.Module):
    def __init__(self, vocab=40, d_model=64, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.W_q = nn.Linear(d_model, d_model, bias=False)
        self.W_k = nn.Linear(d_model, d_model, bias=False)
        self.W_v = nn.Linear(d_model, d_model, bias=False)
        self.out = nn.Linear(d_model, vocab)
        self.cache_k = None
        self.cache_v = None

    def embed(self, ids, start=0):
        return self.tok(ids) + self.pos(torch.arange(start, start + ids.size(1)))

    def forward(self, ids):
        x = self.embed(ids)
        h = x + attention(self.W_q(x), self.W_k(x), self.W_v(x))
        return self.out(h)

    @torch.no_grad()
    def step(self, ids_step, start):
        """Incremental decoding: append this step's K/V to the cache and attend over it."""
        x = self.embed(ids_step, start)
        k, v = self.W_k(x), self.W_v(x)
        self.cache_k = k if self.cache_k is None else torch.cat([self.cache_k, k], dim=1)
        self.cache_v = v if self.cache_v is None else torch.cat([self.cache_v, v], dim=1)
        return self.out(x + attention(self.W_q(x), self.cache_k, self.cache_v))


def make_target():
    torch.manual_seed(0)
    ids = torch.randint(0, 40, (8, 17))
    return {
        "model": CachedDecoder(),
        "batch": ((ids[:, :-1],), ids[:, 1:]),
        "loss_fn": lambda logits, y: F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1)),
        "causal": True,
    }
