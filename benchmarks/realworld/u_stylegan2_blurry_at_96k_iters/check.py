"""Self-contained: a small image generator fit for a short budget is still improving; a longer run keeps sharpening it."""
import torch
from torch import nn
import torch.nn.functional as F


def _images(n=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    xs = torch.linspace(-1, 1, 16)
    yy, xx = torch.meshgrid(xs, xs, indexing="ij")
    freq = torch.rand(n, 1, 1, generator=g) * 6 + 2
    phase = torch.rand(n, 1, 1, generator=g) * 6.28
    return torch.sin(freq * xx + phase) * torch.cos(freq * yy)


def _run(steps):
    torch.manual_seed(0)
    imgs = _images().unsqueeze(1)                       # (64, 1, 16, 16) detailed, high-frequency targets
    z = torch.randn(64, 16, generator=torch.Generator().manual_seed(1))
    gen = nn.Sequential(nn.Linear(16, 128), nn.ReLU(), nn.Linear(128, 256))
    opt = torch.optim.Adam(gen.parameters(), lr=3e-4)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = F.mse_loss(gen(z).view(-1, 1, 16, 16), imgs)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def _check() -> str:
    long = _run(1000)
    short = long[:300]
    tail_drop = (short[int(0.8 * len(short))] - short[-1]) / short[int(0.8 * len(short))]
    assert tail_drop > 0.05, tail_drop
    assert long[-1] < 0.5 * short[-1], (short[-1], long[-1])
    return (f"after 300 steps the reconstruction loss is {short[-1]:.4f} and still falling ({tail_drop:.0%} over the last "
            f"20% of steps); the same run continued to 1000 steps reaches {long[-1]:.4f}: under-trained, not broken")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
