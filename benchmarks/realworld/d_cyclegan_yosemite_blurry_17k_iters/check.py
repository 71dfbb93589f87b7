import torch
import torch.nn as nn
import torch.nn.functional as F


def _pairs(n, g):
    """Smooth 'summer' images and their 'winter' versions (brightened and inverted in one channel)."""
    base = F.avg_pool2d(torch.rand(n, 3, 16, 16, generator=g), 3, 1, 1)
    winter = torch.stack([base[:, 0] * 0.5 + 0.5, base[:, 1], 1 - base[:, 2]], 1)
    return base, winter


def _sharpness(img):
    return (img[..., 1:, :] - img[..., :-1, :]).abs().mean().item()


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    x, y = _pairs(32, g)
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
                        nn.Conv2d(16, 3, 3, padding=1))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    curve = []
    for step in range(400):
        opt.zero_grad()
        loss = F.l1_loss(net(x), y)
        loss.backward()
        opt.step()
        curve.append(loss.item())
        if step == 59:
            with torch.no_grad():
                early_sharp = _sharpness(net(x))
    with torch.no_grad():
        late_sharp = _sharpness(net(x))
    target_sharp = _sharpness(y)
    early, late = sum(curve[50:60]) / 10, sum(curve[-10:]) / 10
    assert curve[59] < curve[49] and late < 0.5 * early, (early, late)
    assert early_sharp < 0.8 * target_sharp and late_sharp > early_sharp, (early_sharp, late_sharp, target_sharp)
    return (f"after 60 steps L1 {early:.3f} and outputs blurry (edge energy {early_sharp:.3f} vs {target_sharp:.3f} "
            f"in the targets), still falling; after 400 steps L1 {late:.3f}, edge energy {late_sharp:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
