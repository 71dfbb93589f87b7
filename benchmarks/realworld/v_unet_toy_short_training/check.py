"""Self-contained: a tiny fully-convolutional net segmenting filled circles in noisy images. After a short run
it predicts background everywhere; the same code trained longer finds the circles."""
import torch
from torch import nn
import torch.nn.functional as F


def _data(n, g, size=32):
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    imgs, masks = [], []
    for _ in range(n):
        m = torch.zeros(size, size)
        for _ in range(3):
            cy, cx = torch.randint(4, size - 4, (2,), generator=g)
            r = torch.randint(2, 5, (1,), generator=g)
            m = torch.maximum(m, (((yy - cy) ** 2 + (xx - cx) ** 2) <= r ** 2).float())
        img = m * 0.6 + 0.5 * torch.randn(size, size, generator=g)
        imgs.append(img)
        masks.append(m)
    return torch.stack(imgs)[:, None], torch.stack(masks).long()


def _net():
    return nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
                         nn.Conv2d(16, 2, 1))


def _run(iters):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    xtr, ytr = _data(64, g)
    xte, yte = _data(16, g)
    net = _net()
    with torch.no_grad():
        net[-1].bias.copy_(torch.tensor([2.0, -2.0]))  # starts out predicting mostly background
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for i in range(iters):
        idx = torch.randint(0, len(xtr), (16,), generator=g)
        loss = F.cross_entropy(net(xtr[idx]), ytr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = net(xte).argmax(1)
    fg = yte == 1
    recall = (pred[fg] == 1).float().mean().item()
    acc = (pred == yte).float().mean().item()
    return recall, acc, pred.float().mean().item()


def _check() -> str:
    r_short, a_short, fg_short = _run(20)
    r_long, a_long, _ = _run(150)
    assert r_short < 0.05 and fg_short < 0.01, (r_short, fg_short)
    assert r_long > 0.6 and a_long > a_short, (r_long, a_long)
    return (f"20 iterations: pixel acc {a_short:.2f}, circle recall {r_short:.2f} (all-background mask); "
            f"150 iterations: pixel acc {a_long:.2f}, circle recall {r_long:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
