import torch
import torch.nn as nn
import torch.nn.functional as F


def _check() -> str:
    torch.manual_seed(0)
    d = 40
    w = torch.randn(d)

    def sample(n):
        x = torch.randn(n, d)
        y = ((x @ w) / d**0.5 + 0.6 * torch.randn(n) > 0).long()  # label noise caps accuracy near 0.8
        return x, y

    xtr, ytr = sample(200)
    xva, yva = sample(1000)
    model = nn.Sequential(nn.Linear(d, 256), nn.ReLU(), nn.Linear(256, 2))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    tr, va, acc = [], [], []
    for _ in range(50):  # epochs, 4 batches each
        for i in range(0, 200, 50):
            opt.zero_grad()
            loss = F.cross_entropy(model(xtr[i : i + 50]), ytr[i : i + 50])
            loss.backward()
            opt.step()
        with torch.no_grad():
            tr.append(float(F.cross_entropy(model(xtr), ytr)))
            out = model(xva)
            va.append(float(F.cross_entropy(out, yva)))
            acc.append(float((out.argmax(1) == yva).float().mean()))
    best = min(range(50), key=va.__getitem__)
    assert tr[-1] < 0.2 * tr[0] and best < 15 and va[-1] > va[best] + 0.2, (tr[-1], best, va[best], va[-1])
    assert max(acc[best:]) - min(acc[best:]) < 0.08, acc
    return (
        f"train loss {tr[0]:.2f} -> {tr[-1]:.3f}; val loss lowest {va[best]:.2f} at epoch {best + 1}, "
        f"{va[-1]:.2f} at epoch 50; val accuracy stays within {min(acc[best:]):.2f}-{max(acc[best:]):.2f}"
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
