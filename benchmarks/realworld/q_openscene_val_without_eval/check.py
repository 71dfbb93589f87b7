"""Self-contained: a per-point classifier with BatchNorm and Dropout. Validating it while still in train mode gives a
different (and batch-dependent, non-repeatable) mIoU than scoring the same weights after model.eval()."""

import torch
import torch.nn.functional as F
from torch import nn


def _miou(pred, labels, c):
    ious = []
    for k in range(c):
        p, t = pred == k, labels == k
        u = (p | t).sum().item()
        if u:
            ious.append((p & t).sum().item() / u)
    return sum(ious) / len(ious)


def _data(n, seed, shift=0.0):
    g = torch.Generator().manual_seed(seed)
    pg = torch.Generator().manual_seed(11)
    centers = 2.0 * torch.randn(6, 16, generator=pg)
    y = torch.randint(0, 6, (n,), generator=g)
    return centers[y] + 1.5 * torch.randn(n, 16, generator=g) + shift, y


def _score(model, x, y, bs):
    with torch.no_grad():
        pred = torch.cat([model(x[i:i + bs]).argmax(1) for i in range(0, len(x), bs)])
    return _miou(pred, y, 6)


def _check() -> str:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.5), nn.Linear(64, 6))
    x, y = _data(2000, 0)
    xv, yv = _data(600, 1, shift=0.4)  # val scenes differ a bit from the training scenes
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    model.train()
    for _ in range(3):
        for i in range(0, len(x), 100):
            loss = F.cross_entropy(model(x[i:i + 100]), y[i:i + 100])
            opt.zero_grad()
            loss.backward()
            opt.step()
    state = {k: v.clone() for k, v in model.state_dict().items()}
    # what the training script logs: validate() without model.eval()
    model.train()
    in_train_a = _score(model, xv, yv, 8)
    in_train_b = _score(model, xv, yv, 8)
    in_train_big = _score(model, xv, yv, 300)
    moved = (model[1].running_mean - state["1.running_mean"]).abs().max().item()
    model.load_state_dict(state)
    model.eval()
    proper = _score(model, xv, yv, 8)
    proper_big = _score(model, xv, yv, 300)
    assert abs(proper - proper_big) < 1e-9
    assert abs(in_train_a - proper) > 0.05 or abs(in_train_big - proper) > 0.05, (in_train_a, in_train_big, proper)
    assert in_train_a != in_train_b and moved > 1e-3, (in_train_a, in_train_b, moved)
    return (f"val mIoU in train mode: {in_train_a:.3f} / {in_train_b:.3f} (two passes, batch 8), {in_train_big:.3f} "
            f"(batch 300), and BN running mean moved by {moved:.3f}; same weights after model.eval(): {proper:.3f} "
            f"for any batch size")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
