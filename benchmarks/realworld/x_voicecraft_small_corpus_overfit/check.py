"""Self-contained: a large token predictor trained on a small corpus memorises it (train top-k accuracy near 1,
validation loss rising after an early minimum), while a much smaller model generalises better on the same data."""

import torch
import torch.nn as nn
import torch.nn.functional as F

V, CTX = 32, 6


def _data(n, g, table):
    x = torch.randint(0, V, (n, CTX), generator=g)
    logits = table[x].sum(1)
    y = torch.distributions.Categorical(logits=logits).sample()  # stochastic next token
    return x, y


class _BagOfTokens(nn.Module):
    """The small model: one learned logit vector per context token, summed."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, V)

    def forward(self, x):
        return self.emb(x).sum(1)


def _model(width):
    if width == 0:
        return _BagOfTokens()
    return nn.Sequential(nn.Embedding(V, width), nn.Flatten(), nn.Linear(CTX * width, 4 * width), nn.ReLU(),
                         nn.Linear(4 * width, V))


def _topk(logits, y, k=5):
    return (logits.topk(k, dim=1).indices == y[:, None]).any(1).float().mean().item()


def _run(width):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    table = torch.randn(V, V, generator=g) * 1.0
    xtr, ytr = _data(2000, g, table)
    xva, yva = _data(4000, g, table)
    model = _model(width)
    opt = torch.optim.Adam(model.parameters(), lr=3e-2 if width == 0 else 2e-3)
    val_curve = []
    for _epoch in range(25):
        perm = torch.randperm(2000, generator=g)
        for i in range(0, 2000, 100):
            idx = perm[i:i + 100]
            loss = F.cross_entropy(model(xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            val_curve.append(F.cross_entropy(model(xva), yva).item())
    with torch.no_grad():
        return _topk(model(xtr), ytr), _topk(model(xva), yva), min(val_curve), val_curve[-1]


def _check() -> str:
    tr_big, va_big, vmin_big, vend_big = _run(64)
    tr_small, va_small, _, vend_small = _run(0)
    assert tr_big > 0.95 and tr_big - va_big > 0.2, (tr_big, va_big)
    assert vend_big > 1.5 * vmin_big, (vmin_big, vend_big)
    assert va_small > va_big + 0.02 and vend_small < vend_big, (va_small, va_big, vend_small, vend_big)
    return (f"large model: train top-5 {tr_big:.2f}, val top-5 {va_big:.2f}, val loss {vmin_big:.2f} at best -> "
            f"{vend_big:.2f} at the end; small model: train top-5 {tr_small:.2f}, val top-5 {va_small:.2f}, "
            f"val loss {vend_small:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
