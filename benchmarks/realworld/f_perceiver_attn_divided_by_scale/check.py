"""Latent cross-attention with the diff's score (divided by head_dim ** -0.5) against the intended one (multiplied)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, dim=64, divide=True):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(4, dim))
        self.q, self.k, self.v = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.head = nn.Linear(4 * dim, 8)
        self.scale, self.divide = dim ** -0.5, divide

    def weights(self, x):
        q, k = self.q(self.latents).expand(x.shape[0], -1, -1), self.k(x)
        scores = q @ k.transpose(-2, -1)
        scores = scores / self.scale if self.divide else scores * self.scale
        return scores.softmax(-1)

    def forward(self, x):
        out = self.weights(x) @ self.v(x)
        return self.head(out.flatten(1))


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 16, 64, generator=g)
    y = x[:, :, :8].mean(1).argmax(1)  # the answer needs every input token
    return x, y


def _train(divide, epochs=10):
    torch.manual_seed(0)
    model = CrossAttention(divide=divide)
    x, y = _data(512, 1)
    vx, vy = _data(512, 2)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(epochs):
        for i in range(0, 512, 64):
            opt.zero_grad()
            F.cross_entropy(model(x[i : i + 64]), y[i : i + 64]).backward()
            opt.step()
    with torch.no_grad():
        peak = model.weights(vx).max(-1).values.mean().item()
        train_acc = (model(x).argmax(1) == y).float().mean().item()
        val_acc = (model(vx).argmax(1) == vy).float().mean().item()
    return peak, train_acc, val_acc


def _check() -> str:
    peak_bug, tr_bug, va_bug = _train(divide=True)
    peak_ok, tr_ok, va_ok = _train(divide=False)
    assert peak_bug > 0.9 and peak_ok < 0.6, (peak_bug, peak_ok)
    assert tr_bug > 0.6 and va_bug < 0.22 and va_bug < va_ok - 0.08, (tr_bug, va_bug, va_ok)
    return (f"10 epochs, 8 classes: mean max attention weight {peak_bug:.2f} with the diff vs {peak_ok:.2f} scaled; "
            f"train/val accuracy {tr_bug:.2f}/{va_bug:.2f} vs {tr_ok:.2f}/{va_ok:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
