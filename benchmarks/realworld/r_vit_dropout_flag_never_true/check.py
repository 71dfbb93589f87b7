"""Self-contained: a tiny ViT whose dropout follows a `train` argument that the training loop never sets."""

import torch
import torch.nn.functional as F
from torch import nn


class Block(nn.Module):
    def __init__(self, dim, p):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, 2, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.p = p

    def forward(self, x, train: bool = False):
        h = self.norm1(x)
        h, _ = self.attn(h, h, h, need_weights=False)
        x = x + F.dropout(h, self.p, training=train)
        return x + F.dropout(self.mlp(self.norm2(x)), self.p, training=train)


class ViT(nn.Module):
    def __init__(self, p, dim=16, n_cls=4):
        super().__init__()
        self.patch_embed = nn.Conv2d(1, dim, 4, stride=4)
        self.cls = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos = nn.Parameter(torch.randn(1, 5, dim) * 0.02)
        self.blocks = nn.ModuleList([Block(dim, p), Block(dim, p)])
        self.norm, self.head, self.p = nn.LayerNorm(dim), nn.Linear(dim, n_cls), p

    def forward(self, images, train: bool = False):
        x = self.patch_embed(images).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1) + self.pos
        x = F.dropout(x, self.p, training=train)
        for blk in self.blocks:
            x = blk(x, train=train)
        return self.head(self.norm(x[:, 0]))


def _run(p, steps=25):
    torch.manual_seed(0)
    model = ViT(p)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(32, 1, 8, 8, generator=g)
    y = torch.randint(0, 4, (32,), generator=g)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    model.train()
    same = torch.equal(model(x), model(x))
    for _ in range(steps):
        loss = F.cross_entropy(model(x), y)  # the training loop never passes train=True
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item(), same


def _check() -> str:
    l0, same0 = _run(0.0)
    l5, same5 = _run(0.5)
    assert same5, "dropout active in training"
    assert abs(l0 - l5) < 1e-6, (l0, l5)
    return (
        f"model.train() yet two forward passes with dropout_rate=0.5 give identical logits; final train loss "
        f"dropout 0.0: {l0:.5f}, dropout 0.5: {l5:.5f} (identical)"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
