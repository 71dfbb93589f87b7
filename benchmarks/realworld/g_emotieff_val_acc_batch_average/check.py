"""Per-batch mean accuracies averaged over len(loader) vs correct predictions over the dataset size."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g)
    y = ((x[:, 0] + 1.2 * torch.randn(n, generator=g)) > 0).long()
    return x, y


def _check() -> str:
    torch.manual_seed(0)
    model = nn.Linear(8, 2)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = _data(512, 1)
    for _ in range(100):
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
    vx, vy = _data(129, 2)
    bs = 64  # 129 images: batches of 64, 64 and 1
    with torch.no_grad():
        right = (model(vx).argmax(1) == vy).float()
    n_batches = (len(vx) + bs - 1) // bs
    logged = sum(right[i : i + bs].mean().item() for i in range(0, len(vx), bs)) / n_batches
    true = right.mean().item()
    assert abs(logged - true) > 0.1, (logged, true)
    return f"validation accuracy logged in the loop {logged:.2f}, over all {len(vx)} images {true:.2f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
