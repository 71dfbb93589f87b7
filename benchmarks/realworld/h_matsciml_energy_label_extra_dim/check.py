import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F


def _graphs(n, seed):
    g = torch.Generator().manual_seed(seed)
    sizes = torch.randint(3, 8, (n,), generator=g)
    feats = [torch.randn(int(k), 6, generator=g) for k in sizes]
    w = torch.tensor([1.0, -2.0, 0.5, 0.0, 1.5, -1.0])
    energy = torch.stack([(f @ w).sum() for f in feats])
    index = torch.cat([torch.full((int(k),), i, dtype=torch.long) for i, k in enumerate(sizes)])
    return torch.cat(feats), index, energy


def _fit(label_extra_dim: bool) -> float:
    torch.manual_seed(0)
    mlp = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 1))
    opt = torch.optim.Adam(mlp.parameters(), lr=1e-2)
    feats, index, energy = _graphs(256, 1)
    target = energy[:, None] if label_extra_dim else energy
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(300):
            out = torch.zeros(256).index_add_(0, index, mlp(feats).squeeze(-1))
            loss = F.mse_loss(out, target)
            opt.zero_grad()
            loss.backward()
            opt.step()
    vf, vi, ve = _graphs(256, 2)
    with torch.no_grad():
        pred = torch.zeros(256).index_add_(0, vi, mlp(vf).squeeze(-1))
    return (1 - ((pred - ve) ** 2).mean() / ve.var()).item()


def _check() -> str:
    r2_bug, r2_ok = _fit(True), _fit(False)
    assert r2_ok > 0.9 and r2_bug < 0.2, (r2_bug, r2_ok)
    return f"validation R^2 {r2_bug:.2f} with (N, 1) labels against (N,) readouts vs {r2_ok:.2f} with matching shapes"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
