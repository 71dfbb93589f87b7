"""A shared per-region scorer attends over the regions of a (B, C, H, W) feature map; the target is the object's cell."""

import torch
import torch.nn as nn
import torch.nn.functional as F

C, H, W = 8, 4, 4


def _maps(n, seed):
    g = torch.Generator().manual_seed(seed)
    where = torch.randint(0, H * W, (n,), generator=g)
    obj = torch.randn(C, generator=torch.Generator().manual_seed(0))  # the object's features, the same in every image
    x = 0.3 * torch.randn(n, C, H * W, generator=g)
    x[torch.arange(n), :, where] += obj
    return x.view(n, C, H, W), where


def _regions(fmap, permute):
    b = fmap.size(0)
    if permute:
        return fmap.permute(0, 2, 3, 1).reshape(b, H * W, C)
    return fmap.view(b, H * W, C)


def _train(permute):
    torch.manual_seed(0)
    scorer = nn.Sequential(nn.Linear(C, 16), nn.Tanh(), nn.Linear(16, 1))  # one score per region, shared
    opt = torch.optim.Adam(scorer.parameters(), lr=1e-2)
    x, where = _maps(512, 1)
    for step in range(150):
        i = (step * 64) % 512
        logits = scorer(_regions(x[i : i + 64], permute)).squeeze(-1)
        opt.zero_grad()
        F.cross_entropy(logits, where[i : i + 64]).backward()
        opt.step()
    vx, vwhere = _maps(512, 2)
    with torch.no_grad():
        return float((scorer(_regions(vx, permute)).squeeze(-1).argmax(1) == vwhere).float().mean())


def _check() -> str:
    acc_view, acc_perm = _train(False), _train(True)
    assert acc_view < 0.25 and acc_perm > 0.9, (acc_view, acc_perm)
    return (
        f"attention peak on the object's cell: {acc_view:.2f} with view(B, HW, C) (chance {1 / (H * W):.2f}), "
        f"{acc_perm:.2f} with permute(0, 2, 3, 1) first"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
