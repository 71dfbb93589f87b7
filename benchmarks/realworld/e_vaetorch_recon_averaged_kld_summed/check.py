"""A small VAE on binary prototype patterns, trained with the reconstruction term summed (before) and averaged (after the diff)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    protos = (torch.rand(8, 64, generator=torch.Generator().manual_seed(0)) > 0.5).float()
    return protos[torch.randint(0, 8, (n,), generator=g)]


class _VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(64, 32)
        self.mu = nn.Linear(32, 4)
        self.lv = nn.Linear(32, 4)
        self.dec = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 64))

    def forward(self, x):
        h = F.relu(self.enc(x))
        mu, lv = self.mu(h), self.lv(h)
        z = mu + torch.randn_like(mu) * (0.5 * lv).exp()
        return torch.sigmoid(self.dec(z)), mu, lv


def _run(reduction):
    torch.manual_seed(0)
    model = _VAE()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = _data(1024, 1)
    for _ in range(15):
        for i in range(0, 1024, 64):
            xb = x[i : i + 64]
            recon, mu, lv = model(xb)
            kld = -0.5 * torch.sum(1 + lv - mu.pow(2) - lv.exp())
            loss = F.binary_cross_entropy(recon, xb, reduction=reduction) + kld
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        recon, mu, lv = model(x[:256])
        kl = (-0.5 * torch.sum(1 + lv - mu.pow(2) - lv.exp()) / 256).item()
        return kl, recon.std(0).mean().item(), (recon.round() != x[:256]).float().mean().item()


def _check() -> str:
    kl_bug, spread_bug, err_bug = _run("mean")
    kl_ok, spread_ok, err_ok = _run("sum")
    assert kl_bug < 0.05 and spread_bug < 0.08 and err_bug > 0.25, (kl_bug, spread_bug, err_bug)
    assert kl_ok > 2.0 and spread_ok > 0.2 and err_ok < 0.15, (kl_ok, spread_ok, err_ok)
    return (
        f"averaged recon: KL {kl_bug:.3f}/sample, recon spread {spread_bug:.3f}, bit error {err_bug:.2f}; "
        f"summed: KL {kl_ok:.2f}, spread {spread_ok:.2f}, error {err_ok:.2f}"
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
