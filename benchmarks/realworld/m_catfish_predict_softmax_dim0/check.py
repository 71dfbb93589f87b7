"""Self-contained: a two-class image classifier trained properly, then queried one image at a time with
softmax(dim=0) on its (1, 2) output: every 'probability' is 1.0 and argmax always answers class 0."""

import torch
from torch import nn
import torch.nn.functional as F


def _data(n, g):
    y = torch.randint(0, 2, (n,), generator=g)
    x = torch.randn(n, 3, 16, 16, generator=g) * 0.5
    x[:, 2] += (y.float() * 2 - 1).view(-1, 1, 1)  # fish pictures are bluer
    return x, y


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 16 * 16, 64), nn.ReLU(), nn.Linear(64, 2))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    x, y = _data(512, g)
    for _ in range(5):
        for i in range(0, 512, 64):
            opt.zero_grad()
            F.cross_entropy(net(x[i:i + 64]), y[i:i + 64]).backward()
            opt.step()
    xt, yt = _data(100, g)
    net.eval()
    bad, good, probs = [], [], None
    with torch.no_grad():
        for i in range(100):
            out = net(xt[i].unsqueeze(0))
            p0 = F.softmax(out, dim=0)
            p1 = F.softmax(out, dim=1)
            bad.append(int(p0.argmax()))
            good.append(int(p1.argmax()))
            if probs is None:
                probs = p0
    bad, good = torch.tensor(bad), torch.tensor(good)
    acc_bad = (bad == yt).float().mean().item()
    acc_good = (good == yt).float().mean().item()
    assert torch.allclose(probs, torch.ones_like(probs)), probs
    assert bool((bad == 0).all()), bad
    assert acc_good > 0.9 and abs(acc_bad - (yt == 0).float().mean().item()) < 1e-6, (acc_good, acc_bad)
    return (f"softmax(dim=0) on a (1, 2) output: {probs.tolist()}, prediction 'cat' for all 100 test images "
            f"(accuracy {acc_bad:.2f} = share of cats); softmax(dim=1): accuracy {acc_good:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
