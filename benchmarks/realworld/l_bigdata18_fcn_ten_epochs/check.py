import torch
import torch.nn as nn
import torch.nn.functional as F


class FCN(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.c1 = nn.Conv1d(1, 16, 7, padding=3)
        self.b1 = nn.BatchNorm1d(16)
        self.c2 = nn.Conv1d(16, 32, 5, padding=2)
        self.b2 = nn.BatchNorm1d(32)
        self.c3 = nn.Conv1d(32, 16, 3, padding=1)
        self.b3 = nn.BatchNorm1d(16)
        self.fc = nn.Linear(16, n_classes)

    def forward(self, x):
        h = F.relu(self.b1(self.c1(x)))
        h = F.relu(self.b2(self.c2(h)))
        h = F.relu(self.b3(self.c3(h)))
        return self.fc(h.mean(-1))


def _series(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 3, (n,), generator=g)
    t = torch.linspace(0, 1, 64)
    freq = (3 + 3 * y).float()[:, None]  # class = dominant frequency of the spectrum-like profile
    phase = 2 * torch.pi * torch.rand(n, 1, generator=g)
    x = torch.sin(2 * torch.pi * freq * t[None, :] + phase) + 0.8 * torch.randn(n, 64, generator=g)
    return x[:, None, :], y


def _run(epochs):
    torch.manual_seed(0)
    model = FCN()
    opt = torch.optim.Adam(model.parameters(), lr=3e-4)
    x, y = _series(60, 1)
    vx, vy = _series(60, 2)
    losses = []
    for _ in range(epochs):
        model.train()
        for i in range(0, 60, 16):
            opt.zero_grad()
            loss = F.cross_entropy(model(x[i : i + 16]), y[i : i + 16])
            loss.backward()
            opt.step()
        losses.append(loss.item())
    model.eval()
    with torch.no_grad():
        acc = (model(vx).argmax(1) == vy).float().mean().item()
    return acc, losses


def _check() -> str:
    acc10, l10 = _run(10)
    acc_long, l_long = _run(100)
    assert l10[-1] < l10[0] and l_long[-1] < 0.5 * l10[-1], (l10[-1], l_long[-1])
    assert acc10 < 0.6 and acc_long > acc10 + 0.3, (acc10, acc_long)
    return (
        f"10 epochs: val acc {acc10:.2f}, train loss {l10[0]:.2f} -> {l10[-1]:.2f} and still falling; "
        f"100 epochs, same model and data: val acc {acc_long:.2f}, train loss {l_long[-1]:.3f}"
    )


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
