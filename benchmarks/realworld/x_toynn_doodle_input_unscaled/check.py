"""Self-contained: a small sigmoid network trained on doodles scaled to [0, 1] is fed the user's drawing as raw
0..255 intensities: the hidden units saturate and almost every drawing gets the same label."""

import torch
import torch.nn as nn
import torch.nn.functional as F

P = 64  # 8x8 "doodles"


def _doodles(g, n):
    """Three doodle classes that differ mostly in how much of the canvas they cover (dot, line, filled shape)."""
    y = torch.randint(0, 3, (n,), generator=g)
    cover = torch.tensor([0.1, 0.3, 0.5])[y][:, None]
    ink = (torch.rand(n, P, generator=g) < cover).float()
    return ink * 255.0, y  # canvas intensities


def _check() -> str:
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(P, 32), nn.Sigmoid(), nn.Linear(32, 3))
    opt = torch.optim.SGD(net.parameters(), lr=0.5)
    g = torch.Generator().manual_seed(1)
    for _ in range(300):
        x, y = _doodles(g, 64)
        loss = F.cross_entropy(net(x / 255.0), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    xu, yu = _doodles(torch.Generator().manual_seed(9), 600)
    with torch.no_grad():
        raw = net(xu).argmax(-1)
        scaled = net(xu / 255.0).argmax(-1)
    acc_raw, acc_ok = (raw == yu).float().mean().item(), (scaled == yu).float().mean().item()
    top_share = torch.bincount(raw, minlength=3).max().item() / len(raw)
    assert acc_ok > 0.85 and acc_raw < 0.5 and top_share > 0.6, (acc_ok, acc_raw, top_share)
    return (f"user drawings fed as 0..255: accuracy {acc_raw:.2f}, {top_share:.0%} get the same label; "
            f"scaled to 0..1 like the training data: accuracy {acc_ok:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
