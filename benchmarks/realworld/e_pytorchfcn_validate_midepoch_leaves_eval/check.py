"""A dropout network trained by a loop that validates every few iterations, with and without restoring train mode."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 20, generator=g)
    y = (x[:, :5].sum(1) > 0).long() + (x[:, 5:10].sum(1) > 0).long()
    return x, y


def _run(restore_train):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 128), nn.ReLU(), nn.Dropout(0.6), nn.Linear(128, 128), nn.ReLU(), nn.Dropout(0.6), nn.Linear(128, 3))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    x, y = _data(512, 1)
    vx, vy = _data(128, 2)
    per_epoch = []
    for epoch in range(8):
        model.train()
        losses = []
        for b in range(16):
            if b == 2:  # validate every N iterations
                model.eval()
                with torch.no_grad():
                    F.cross_entropy(model(vx), vy)
                if restore_train:
                    model.train()
            opt.zero_grad()
            loss = F.cross_entropy(model(x[b * 32 : (b + 1) * 32]), y[b * 32 : (b + 1) * 32])
            loss.backward()
            opt.step()
            losses.append(loss.item())
        per_epoch.append(losses)
    # loss over the first iterations of an epoch vs the last iterations of the previous one
    jumps = [sum(per_epoch[e][:2]) / sum(per_epoch[e - 1][-2:]) for e in range(3, 8)]
    return sum(jumps) / len(jumps)


def _check() -> str:
    bug = _run(restore_train=False)
    ok = _run(restore_train=True)
    assert bug > 1.4, bug
    assert ok < 1.25, ok
    return f"loss at epoch start / loss at end of previous epoch: {bug:.2f}x when validation leaves eval mode, {ok:.2f}x when train mode is restored"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
