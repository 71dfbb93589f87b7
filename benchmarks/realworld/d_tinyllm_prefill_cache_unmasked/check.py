import math

import torch
import torch.nn as nn
import torch.nn.functional as F

V, T, D = 5, 16, 32


class _Cache:
    def __init__(self):
        self.k = self.v = None


class _Attn(nn.Module):
    def __init__(self, fixed):
        super().__init__()
        self.qkv, self.proj, self.fixed = nn.Linear(D, 3 * D), nn.Linear(D, D), fixed
        self.mlp = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, D))

    def forward(self, x, cache=None):
        n = x.shape[1]
        q, k, v = self.qkv(x).split(D, dim=2)
        if cache is not None:
            if cache.k is not None:
                k, v = torch.cat([cache.k, k], 1), torch.cat([cache.v, v], 1)
            cache.k, cache.v = k, v
        att = q @ k.transpose(1, 2) / math.sqrt(D)
        s = k.shape[1]
        if self.fixed or cache is None:  # the reported version masks only when there is no cache
            causal = torch.ones(n, s, dtype=torch.bool).tril(diagonal=s - n)
            att = att.masked_fill(~causal, float("-inf"))
        x = x + self.proj(F.softmax(att, -1) @ v)
        return x + self.mlp(x)


class TinyGPT(nn.Module):
    def __init__(self, fixed):
        super().__init__()
        self.tok, self.pos = nn.Embedding(V, D), nn.Embedding(T, D)
        self.blocks = nn.ModuleList([_Attn(fixed) for _ in range(2)])
        self.head = nn.Linear(D, V)

    def forward(self, idx, caches=None, start=0):
        pos = torch.arange(start, start + idx.shape[1])
        h = self.tok(idx) + self.pos(pos)
        for i, blk in enumerate(self.blocks):
            h = blk(h, None if caches is None else caches[i])
        return self.head(h)


def _seqs(n, g):
    """Three random tokens, then each token is the sum (mod V) of the tokens two and three places back."""
    x = torch.zeros(n, T, dtype=torch.long)
    x[:, :3] = torch.randint(0, V, (n, 3), generator=g)
    for t in range(3, T):
        x[:, t] = (x[:, t - 2] + x[:, t - 3]) % V
    return x


def _train_and_probe(fixed):
    g = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    model = TinyGPT(fixed)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(400):
        x = _seqs(64, g)
        loss = F.cross_entropy(model(x[:, :-1]).flatten(0, 1), x[:, 1:].flatten())  # teacher forcing, no cache
        opt.zero_grad()
        loss.backward()
        opt.step()
    x = _seqs(256, g)
    with torch.no_grad():
        tf_acc = (model(x[:, :-1]).argmax(-1) == x[:, 1:]).float().mean().item()
        pre_pred = model(x[:, :-1], [_Cache() for _ in model.blocks]).argmax(-1)  # prefill with a cache attached
        pre_acc = (pre_pred == x[:, 1:]).float().mean().item()
        changed = x.clone()
        changed[:, 10:] = (changed[:, 10:] + 1) % V
        early = model(changed[:, :-1], [_Cache() for _ in model.blocks])[:, :9]
        base = model(x[:, :-1], [_Cache() for _ in model.blocks])[:, :9]
        leak = (early - base).abs().max().item()
    return loss.item(), tf_acc, pre_acc, leak


def _check() -> str:
    loss, tf_acc, pre_acc, leak = _train_and_probe(fixed=False)
    _, _, pre_ok, leak_ok = _train_and_probe(fixed=True)
    assert tf_acc > 0.85 and pre_acc < tf_acc - 0.1 and leak > 1.0, (loss, tf_acc, pre_acc, leak)
    assert leak_ok == 0.0 and abs(pre_ok - tf_acc) < 1e-6, (pre_ok, leak_ok)
    return (f"train loss {loss:.2f}, teacher-forced accuracy {tf_acc:.2f}; the cached prefill pass gets {pre_acc:.2f} "
            f"and its logits at positions < 9 move by up to {leak:.1f} when tokens after position 9 change")

def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
