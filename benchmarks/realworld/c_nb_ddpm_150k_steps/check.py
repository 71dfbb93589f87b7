import torch
import torch.nn as nn
import torch.nn.functional as F


def _check() -> str:
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(3, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 2))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)

    def batch(n):
        angle = 2 * torch.pi * torch.rand(n)
        x0 = torch.stack([angle.cos(), angle.sin()], 1)  # data on the unit circle
        sigma = 0.1 + 0.9 * torch.rand(n, 1)
        eps = torch.randn(n, 2)
        return x0 + sigma * eps, sigma, eps

    def quality():
        torch.manual_seed(123)
        xt, sigma, _ = batch(2000)
        with torch.no_grad():
            x0_hat = xt - sigma * net(torch.cat([xt, sigma], 1))
        return float((x0_hat.norm(dim=1) - 1).abs().mean())  # distance of denoised points from the data

    losses, q = [], {}
    for step in range(1, 2001):
        xt, sigma, eps = batch(128)
        opt.zero_grad()
        loss = F.mse_loss(net(torch.cat([xt, sigma], 1)), eps)
        loss.backward()
        opt.step()
        losses.append(loss.item())
        if step in (400, 2000):
            q[step] = quality()
    early, late = sum(losses[300:400]) / 100, sum(losses[1900:2000]) / 100
    assert late > 0.85 * early and q[2000] < 0.75 * q[400], (early, late, q)
    return (
        f"mean loss steps 300-400 {early:.3f}, steps 1900-2000 {late:.3f} (looks flat); denoising error "
        f"{q[400]:.3f} at step 400 vs {q[2000]:.3f} at step 2000"
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
