"""Self-contained: a FoldingNet-style autoencoder (PointNet encoder, 2-D grid folding decoder) on point-pair-feature
patches with a Chamfer loss. At epoch 20 the loss is still clearly falling; continuing the same run to epoch 100
lowers it a lot further. Nothing is wrong, the run is simply stopped early."""

import torch
from torch import nn


def _patches(n, pts, g):
    # smooth random surfaces: 4-d point pair features that lie on a 2-d manifold per patch
    uv = torch.rand(n, pts, 2, generator=g) * 2 - 1
    a = torch.randn(n, 1, 4, generator=g)
    b = torch.randn(n, 1, 4, generator=g)
    c = torch.randn(n, 1, 4, generator=g) * 0.5
    return uv[..., :1] * a + uv[..., 1:] * b + (uv ** 2).sum(-1, keepdim=True) * c


class FoldAE(nn.Module):
    def __init__(self, code=32, grid=5):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, code))
        s = torch.linspace(-1, 1, grid)
        self.register_buffer("grid", torch.stack(torch.meshgrid(s, s, indexing="ij"), -1).view(-1, 2))
        self.fold = nn.Sequential(nn.Linear(code + 2, 64), nn.ReLU(), nn.Linear(64, 4))

    def forward(self, x):
        code = self.enc(x).max(1).values
        g = self.grid.unsqueeze(0).expand(x.shape[0], -1, -1)
        return self.fold(torch.cat([code.unsqueeze(1).expand(-1, g.shape[1], -1), g], -1))


def _chamfer(a, b):
    d = torch.cdist(a, b)
    return d.min(2).values.mean() + d.min(1).values.mean()


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    data = _patches(128, 25, g)
    model = FoldAE()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    hist = []
    for _ in range(100):
        tot = 0.0
        for i in range(0, len(data), 64):
            x = data[i:i + 64]
            loss = _chamfer(model(x), x)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
        hist.append(tot / 2)
    e1, e20, e100 = hist[0], hist[19], hist[99]
    recent_drop = hist[14] - hist[19]
    assert all(torch.isfinite(torch.tensor(hist)))
    assert e20 < e1 and recent_drop > 0.02 * e20, (e1, hist[14], e20)
    assert e100 < 0.7 * e20, (e20, e100)
    return (f"Chamfer loss epoch 1 {e1:.3f}, epoch 15 {hist[14]:.3f}, epoch 20 {e20:.3f} (still falling), "
            f"epoch 50 {hist[49]:.3f}, epoch 100 {e100:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
