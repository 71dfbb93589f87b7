"""A segmentation-like per-pixel classifier trained on few cases: train loss keeps falling, val loss turns up, val Dice holds."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _cases(n, seed):
    g = torch.Generator().manual_seed(seed)
    img = torch.randn(n, 1, 16, 16, generator=g)
    blob = F.avg_pool2d(torch.randn(n, 1, 16, 16, generator=g), 5, 1, 2) > 0.1
    img = img * 0.8 + 1.2 * blob.float()
    return img, blob.float()


def _dice(logits, mask):
    pred = (logits > 0).float()
    return (2 * (pred * mask).sum() / (pred.sum() + mask.sum() + 1e-6)).item()


def _check() -> str:
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(1, 16, 5, padding=2), nn.ReLU(), nn.Conv2d(16, 16, 5, padding=2), nn.ReLU(),
                        nn.Conv2d(16, 1, 5, padding=2))
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    x, y = _cases(12, 1)
    vx, vy = _cases(32, 2)
    hist = []
    for step in range(200):
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(net(x), y)
        loss.backward()
        opt.step()
        if step % 6:
            continue
        with torch.no_grad():
            out = net(vx)
            hist.append((loss.item(), F.binary_cross_entropy_with_logits(out, vy).item(), _dice(out, vy)))
    best = min(range(len(hist)), key=lambda i: hist[i][1])
    tr_end, va_end, dice_end = hist[-1]
    assert tr_end < 0.5 * hist[best][0], (hist[best], hist[-1])
    assert va_end > 1.2 * hist[best][1] and va_end > 2 * tr_end, (hist[best], hist[-1])
    assert dice_end > 0.7 and dice_end > hist[best][2] - 0.05, (hist[best], hist[-1])
    return (f"12 training cases, 200 steps: val loss best {hist[best][1]:.3f} at step {6 * best}, ends {va_end:.3f}; "
            f"train loss ends {tr_end:.3f}; val Dice {hist[best][2]:.2f} -> {dice_end:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
