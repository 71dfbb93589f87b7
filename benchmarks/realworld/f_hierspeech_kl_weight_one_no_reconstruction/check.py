"""A small VAE whose reconstruction term (summed squared error per example) is added to a KL term weighted 1.0:
the KL side dominates and the model reconstructs poorly; weighted 0.1 it reconstructs."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    basis = torch.randn(4, 64, generator=torch.Generator().manual_seed(0))
    return torch.tanh(torch.randn(n, 4, generator=g) @ basis / 2) * 0.5


class _VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(64, 64), nn.ReLU())
        self.mu, self.lv = nn.Linear(64, 8), nn.Linear(64, 8)
        self.dec = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 64))

    def forward(self, x):
        h = self.enc(x)
        mu, lv = self.mu(h), self.lv(h)
        return self.dec(mu + torch.randn_like(mu) * (0.5 * lv).exp()), mu, lv


def _kl(mu, lv):
    return (-0.5 * (1 + lv - mu**2 - lv.exp()).sum(1)).mean()


def _run(c_kl):
    torch.manual_seed(0)
    model = _VAE()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    x = _data(2048, 1)
    for _ in range(10):
        for i in range(0, 2048, 64):
            xb = x[i : i + 64]
            recon, mu, lv = model(xb)
            loss = F.mse_loss(recon, xb, reduction="sum") / len(xb) + c_kl * _kl(mu, lv)
            opt.zero_grad()
            loss.backward()
            opt.step()
    vx = _data(512, 2)
    with torch.no_grad():
        recon, mu, lv = model(vx)
    return F.mse_loss(recon, vx).item(), vx.var().item(), _kl(mu, lv).item()


def _check() -> str:
    err_bug, var, kl_bug = _run(1.0)
    err_ok, _, kl_ok = _run(0.1)
    assert err_bug > 0.4 * var and err_ok < 0.15 * var and err_bug > 4 * err_ok, (err_bug, err_ok, var)
    return (
        f"KL weight 1.0: recon MSE {err_bug:.4f} (data variance {var:.4f}, KL {kl_bug:.2f}); "
        f"weight 0.1: {err_ok:.4f} (KL {kl_ok:.2f})"
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
