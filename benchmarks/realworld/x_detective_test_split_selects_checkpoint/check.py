"""Self-contained: checkpoints of one training run are selected by their accuracy on the test split (which is then
also the reported number) versus selected on a dev split; a large fresh sample gives each checkpoint's true accuracy."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, g, w):
    x = torch.randn(n, 20, generator=g)
    logits = x @ w
    y = (logits + 1.5 * torch.randn(n, generator=g) > 0).long()  # noisy labels: accuracy tops out near 0.8
    return x, y


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    w = torch.randn(20, generator=g) / 2
    xtr, ytr = _data(200, g, w)
    xpool, ypool = _data(20000, g, w)  # held-out pool: dev/test splits are drawn from it, the rest is "fresh"
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    hits = []
    for step in range(600):
        idx = torch.randint(0, 200, (32,), generator=g)
        loss = F.cross_entropy(model(xtr[idx]), ytr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 9:
            with torch.no_grad():
                hits.append((model(xpool).argmax(1) == ypool).float())
    hits = torch.stack(hits)  # (checkpoints, pool)
    true_acc = hits.mean(1)
    leak, honest = [], []
    for r in range(100):
        perm = torch.randperm(hits.shape[1], generator=torch.Generator().manual_seed(100 + r))
        dev, test = perm[:150], perm[150:300]
        acc_dev, acc_test = hits[:, dev].mean(1), hits[:, test].mean(1)
        k = acc_test.argmax()
        leak.append((acc_test[k] - true_acc[k]).item())
        k = acc_dev.argmax()
        honest.append((acc_test[k] - true_acc[k]).item())
    leak_gap, honest_gap = sum(leak) / len(leak), sum(honest) / len(honest)
    assert leak_gap > 0.02 and leak_gap > honest_gap + 0.015 and abs(honest_gap) < 0.015, (leak_gap, honest_gap)
    return (f"over 100 dev/test draws of 150 examples, {hits.shape[0]} checkpoints: selecting on the test split "
            f"reports "
            f"{leak_gap:+.3f} above the chosen checkpoint's true accuracy (best true {true_acc.max():.3f}); selecting "
            f"on dev and reporting test: {honest_gap:+.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
