"""Self-contained: a small image classifier; validation accuracy summed per sample but divided by batch count."""

import torch
from torch import nn


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    C, n = 10, 640
    protos = torch.randn(C, 1, 8, 8, generator=g)
    def make(k):
        y = torch.randint(0, C, (k,), generator=g)
        return protos[y] + 2.5 * torch.randn(k, 1, 8, 8, generator=g), y
    xtr, ytr = make(n)
    xva, yva = make(320)
    model = nn.Sequential(nn.Flatten(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, C))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    crit = nn.CrossEntropyLoss()
    bs = 32
    for _ in range(5):
        for i in range(0, n, bs):
            loss = crit(model(xtr[i:i + bs]), ytr[i:i + bs])
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    batches = [(xva[i:i + bs], yva[i:i + bs]) for i in range(0, len(yva), bs)]
    with torch.no_grad():
        correct_sum = sum((model(xb).argmax(1) == yb).sum().item() for xb, yb in batches)
    reported = correct_sum / len(batches)          # the edited code
    true_acc = correct_sum / len(yva)
    assert reported > 1.0 and 0.5 < true_acc <= 1.0, (reported, true_acc)
    return f"reported val accuracy {reported:.2f} (> 1) while the true val accuracy is {true_acc:.3f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
