"""Self-contained: an implicit-function decoder whose ten sub-MLPs are kept in a plain Python list vs nn.ModuleList."""

import torch
import torch.nn as nn


class RES_MLP(nn.Module):
    def __init__(self, in_dim, out_dim, hidden):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, out_dim))

    def forward(self, x):
        return self.body(x)


class COOD_MLP(nn.Module):
    def __init__(self, in_dim, out_dim, hidden):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, out_dim))

    def forward(self, x):
        return self.body(x)


class RESMLPS(nn.Module):
    def __init__(self, in_dim, out_dim, registered):
        super().__init__()
        mlps = [RES_MLP(in_dim, out_dim, 32) for _ in range(10)]
        self.mlps = nn.ModuleList(mlps) if registered else mlps
        self.cood_mlp = COOD_MLP(2, 16, 32)
        self.expansion = nn.Linear(16, 10)

    def forward(self, feat, coord):
        w = torch.softmax(self.expansion(self.cood_mlp(coord)), dim=-1)
        outs = torch.stack([m(feat) for m in self.mlps], dim=-1)
        return (outs * w.unsqueeze(1)).sum(-1)


def _run(registered):
    torch.manual_seed(0)
    model = RESMLPS(16, 3, registered)
    n_params = sum(p.numel() for p in model.parameters())
    before = model.mlps[0].body[0].weight.detach().clone()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(1)
    W = torch.randn(16, 3, generator=g)
    losses = []
    for _ in range(300):
        feat = torch.randn(128, 16, generator=g)
        coord = torch.rand(128, 2, generator=g) * 2 - 1
        rgb = torch.tanh(feat @ W) * (1 + coord[:, :1])
        loss = (model(feat, coord) - rgb).abs().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    moved = (model.mlps[0].body[0].weight - before).abs().max().item()
    return n_params, moved, sum(losses[:20]) / 20, sum(losses[-20:]) / 20


def _check() -> str:
    n_bad, moved_bad, l0_bad, l1_bad = _run(False)
    n_ok, moved_ok, l0_ok, l1_ok = _run(True)
    assert n_bad < n_ok / 5, (n_bad, n_ok)
    assert moved_bad == 0.0 and moved_ok > 1e-3, (moved_bad, moved_ok)
    assert l1_bad > 2 * l1_ok, (l1_bad, l1_ok)
    return (f"plain list: {n_bad} params seen by the optimizer (vs {n_ok}), sub-MLP weights moved {moved_bad:.1e}, "
            f"L1 {l0_bad:.3f} -> {l1_bad:.3f}; ModuleList: L1 {l0_ok:.3f} -> {l1_ok:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
