"""A classifier whose forward builds nn.Dropout(p=0.5) on the fly before the last layer, evaluated after net.eval()."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.fc = nn.Linear(64, 5)

    def forward(self, x):
        x = self.body(x)
        x = nn.Dropout(p=0.5)(x)  # a fresh module each call: always in training mode
        return self.fc(x)


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(5, 20, generator=torch.Generator().manual_seed(0))
    y = torch.randint(0, 5, (n,), generator=g)
    return centers[y] + 2.0 * torch.randn(n, 20, generator=g), y


def _check() -> str:
    torch.manual_seed(0)
    net = Net()
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    x, y = _data(2048, 1)
    for step in range(300):
        i = (step * 64) % len(x)
        opt.zero_grad()
        F.cross_entropy(net(x[i : i + 64]), y[i : i + 64]).backward()
        opt.step()
    net.eval()
    vx, vy = _data(1000, 2)
    with torch.no_grad():
        a, b = net(vx), net(vx)
        acc_a = float((a.argmax(1) == vy).float().mean())
        acc_b = float((b.argmax(1) == vy).float().mean())
        flips = float((a.argmax(1) != b.argmax(1)).float().mean())
        clean = float((net.fc(net.body(vx) * 1.0).argmax(1) == vy).float().mean())  # what eval() should give
    assert not torch.equal(a, b) and flips > 0.03, (flips, acc_a, acc_b, clean)
    return (
        f"after net.eval(), two passes over the same 1000 test inputs disagree on {flips:.1%} of predictions "
        f"(accuracy {acc_a:.3f} vs {acc_b:.3f}; {clean:.3f} without dropout at test time)"
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
