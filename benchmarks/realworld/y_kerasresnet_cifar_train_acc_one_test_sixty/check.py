"""Self-contained: a wide net on a small un-augmented set reaches train acc 1.0 while test acc stalls far below."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, g, protos):
    y = torch.randint(0, 10, (n,), generator=g)
    x = protos[y] + 1.8 * torch.randn(n, 64, generator=g)
    return x, y


def _acc(model, x, y):
    with torch.no_grad():
        return (model(x).argmax(-1) == y).float().mean().item()


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    protos = torch.randn(10, 64, generator=g) * 0.5
    x, y = _data(500, g, protos)
    xt, yt = _data(2000, g, protos)
    model = nn.Sequential(nn.Linear(64, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    tr, te, te_loss = [], [], []
    for _ in range(30):
        perm = torch.randperm(500, generator=g)
        for i in range(0, 500, 128):
            idx = perm[i:i + 128]
            opt.zero_grad()
            F.cross_entropy(model(x[idx]), y[idx]).backward()
            opt.step()
        tr.append(_acc(model, x, y))
        te.append(_acc(model, xt, yt))
        with torch.no_grad():
            te_loss.append(F.cross_entropy(model(xt), yt).item())
    assert tr[-1] > 0.99, tr[-1]
    assert te[-1] < tr[-1] - 0.3 and max(te[-10:]) - min(te[-10:]) < 0.05, (te[-10:],)
    assert te_loss[-1] > 1.3 * min(te_loss), (min(te_loss), te_loss[-1])
    return (f"after 30 epochs: train acc {tr[-1]:.3f}, test acc {te[-1]:.3f} (flat over the last 10 epochs: "
            f"{min(te[-10:]):.3f}-{max(te[-10:]):.3f}); test loss {min(te_loss):.3f} at best -> {te_loss[-1]:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
