"""Self-contained: a small MLP VAE on 8x8 synthetic images, reconstruction MSE averaged vs summed, KL summed."""

import torch
import torch.nn as nn
import torch.nn.functional as F

D, Z = 64, 8


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(D, 128), nn.ReLU(), nn.Linear(128, 2 * Z))
        self.dec = nn.Sequential(nn.Linear(Z, 128), nn.ReLU(), nn.Linear(128, D), nn.Sigmoid())

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar


def _images(n, g):
    # bright square at a random position on a dark 8x8 canvas
    r = torch.randint(0, 5, (n, 1, 1), generator=g)
    c = torch.randint(0, 5, (n, 1, 1), generator=g)
    rows = torch.arange(8).view(1, 8, 1)
    cols = torch.arange(8).view(1, 1, 8)
    x = ((rows >= r) & (rows < r + 4) & (cols >= c) & (cols < c + 4)).float()
    return x.view(n, D)


def _train(reduction):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    model = VAE()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step in range(200):
        x = _images(64, g)
        recon, mu, logvar = model(x)
        rec = F.mse_loss(recon, x, reduction=reduction)
        kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
        opt.zero_grad()
        (rec + kld).backward()
        opt.step()
    x = _images(256, torch.Generator().manual_seed(7))
    with torch.no_grad():
        mu, _ = model.enc(x).chunk(2, dim=-1)
        recon = model.dec(mu)
    per_pixel = F.mse_loss(recon, x).item()
    spread = recon.std(dim=0).mean().item()  # how much reconstructions differ between inputs
    return per_pixel, spread, mu.abs().mean().item()


def _check() -> str:
    err_mean, spread_mean, mu_mean = _train("mean")
    err_sum, spread_sum, mu_sum = _train("sum")
    assert err_mean > 2 * err_sum and spread_mean < 0.5 * spread_sum, (err_mean, err_sum, spread_mean, spread_sum)
    return (
        f"MSE averaged over pixels: per-pixel recon error {err_mean:.3f}, recon spread across inputs {spread_mean:.3f}, "
        f"|mu| {mu_mean:.3f}; MSE summed: {err_sum:.3f}, {spread_sum:.3f}, |mu| {mu_sum:.3f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
