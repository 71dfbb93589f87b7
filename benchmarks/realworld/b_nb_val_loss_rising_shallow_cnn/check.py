import torch
import torch.nn as nn
import torch.nn.functional as F


def _check() -> str:
    torch.manual_seed(0)
    d, n_cls = 64, 3
    w = torch.randn(d, n_cls)

    def sample(n):
        x = torch.randn(n, d)
        y = (x @ w + 2.5 * torch.randn(n, n_cls)).argmax(1)  # noisy labels
        return x, y

    xtr, ytr = sample(64)
    xva, yva = sample(256)
    model = nn.Sequential(nn.Linear(d, 512), nn.ReLU(), nn.Linear(512, n_cls))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    tr_hist, va_hist = [], []
    for _ in range(300):
        opt.zero_grad()
        loss = F.cross_entropy(model(xtr), ytr)
        loss.backward()
        opt.step()
        with torch.no_grad():
            tr_hist.append(float(loss))
            va_hist.append(float(F.cross_entropy(model(xva), yva)))
    best = min(range(len(va_hist)), key=va_hist.__getitem__)
    assert tr_hist[-1] < 0.1 * tr_hist[0], tr_hist[-1]
    assert va_hist[-1] > va_hist[best] + 0.3 and best < 200, (best, va_hist[best], va_hist[-1])
    return (f"train loss {tr_hist[0]:.2f} -> {tr_hist[-1]:.3f}; val loss minimum {va_hist[best]:.2f} at step "
            f"{best}, then rises to {va_hist[-1]:.2f} (64 noisy training samples, 34k-parameter MLP)")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
