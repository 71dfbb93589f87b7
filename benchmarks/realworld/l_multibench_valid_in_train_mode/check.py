import torch
import torch.nn as nn


class LateFusion(nn.Module):
    def __init__(self):
        super().__init__()
        self.text = nn.Sequential(nn.Linear(12, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.3))
        self.audio = nn.Sequential(nn.Linear(6, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.3))
        self.head = nn.Linear(64, 2)

    def forward(self, xs):
        return self.head(torch.cat([self.text(xs[0]), self.audio(xs[1])], 1))


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 2, (n,), generator=g)
    t = torch.randn(n, 12, generator=g) + 0.6 * y[:, None].float()
    a = torch.randn(n, 6, generator=g) + 0.4 * y[:, None].float()
    return t, a, y


def _validate(model, data, bs, buggy):
    model.eval()
    correct = 0
    with torch.no_grad():
        t, a, y = data
        for i in range(0, len(y), bs):
            if buggy:
                model.train()
            out = model([t[i : i + bs], a[i : i + bs]])
            correct += (out.argmax(1) == y[i : i + bs]).sum().item()
    return correct / len(y)


def _check() -> str:
    torch.manual_seed(0)
    model = LateFusion()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    t, a, y = _data(512, 1)
    for _ in range(15):
        model.train()
        for i in range(0, 512, 32):
            opt.zero_grad()
            nn.functional.cross_entropy(model([t[i : i + 32], a[i : i + 32]]), y[i : i + 32]).backward()
            opt.step()
    val = _data(256, 2)
    torch.manual_seed(1)
    b1 = _validate(model, val, 16, True)
    b2 = _validate(model, val, 16, True)
    e1 = _validate(model, val, 16, False)
    e2 = _validate(model, val, 16, False)
    assert e1 == e2 and b1 != b2, (b1, b2, e1, e2)
    return f"validation with model.train() inside the loop: {b1:.3f} then {b2:.3f} on the same checkpoint; in eval mode {e1:.3f} both times"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
