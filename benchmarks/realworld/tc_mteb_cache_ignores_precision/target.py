"""Retrieval evaluation with an on-disk-style embedding cache around a small text encoder.

The encoder can run at full precision or with int8-quantised embeddings (an "experiment" setting).
Embeddings are cached between evaluation runs so repeated benchmarks are cheap.
"""
import hashlib

import torch
import torch.nn as nn
import torch.nn.functional as F

_EMBED_CACHE = {}


class BagEncoder(nn.Module):
    def __init__(self, vocab=64, dim=16, name="bag-encoder-small"):
        super().__init__()
        self.name = name
        self.precision = "float32"          # or "int8"
        self.emb = nn.EmbeddingBag(vocab, 32, mode="mean")
        self.proj = nn.Linear(32, dim)

    def forward(self, ids):
        z = F.normalize(self.proj(torch.tanh(self.emb(ids))), dim=-1)
        if self.precision == "int8":
            scale = 127.0
            z = torch.round(z * scale).clamp(-127, 127) / scale
        return z


def _cache_key(model, ids):
    digest = hashlib.sha1(ids.numpy().tobytes()).hexdigest()
    return f"{model.name}/{digest}"


def cached_encode(model, ids):
    key = _cache_key(model, ids)
    if key not in _EMBED_CACHE:
        with torch.no_grad():
            _EMBED_CACHE[key] = model(ids).clone()
    return _EMBED_CACHE[key]


def eval_fn(model, batch):
    queries, docs = batch
    q = cached_encode(model, queries)
    d = cached_encode(model, docs)
    return q @ d.T                          # similarity matrix


def metric_fn(scores, targets):
    return (scores.argmax(dim=1) == targets).float().mean().item()


def make_target():
    torch.manual_seed(0)
    docs = torch.randint(0, 64, (24, 6))
    queries = docs.clone()
    queries[:, :2] = torch.randint(0, 64, (24, 2))   # noisy copies of the documents
    targets = torch.arange(24)
    return {
        "model": BagEncoder(),
        "batch": ((queries, docs), targets),
        "eval_fn": eval_fn,
        "metric_fn": metric_fn,
        "loss_fn": lambda scores, y: F.cross_entropy(scores / 0.05, y),
        "call_model": lambda m, inp: m(inp[0]) @ m(inp[1]).T,
    }
