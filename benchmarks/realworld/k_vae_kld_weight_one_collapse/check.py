"""A small VAE whose loss is mse_loss(recons, x) (mean over pixels) + w * KL (summed over the latent
dimensions, mean over the batch). With w = 1 (change.diff) the KL term dominates: the posterior collapses
and every reconstruction is the same average image; with the default small weight it reconstructs."""

import torch
import torch.nn as nn
import torch.nn.functional as F

LATENT = 8


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(256, 128), nn.ReLU())
        self.mu = nn.Linear(128, LATENT)
        self.logvar = nn.Linear(128, LATENT)
        self.dec = nn.Sequential(nn.Linear(LATENT, 128), nn.ReLU(), nn.Linear(128, 256), nn.Sigmoid())

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar


def _images(n, g):
    protos = (torch.rand(12, 256, generator=torch.Generator().manual_seed(4)) > 0.5).float()
    idx = torch.randint(0, 12, (n,), generator=g)
    return (0.8 * protos[idx] + 0.1 + 0.05 * torch.randn(n, 256, generator=g)).clamp(0, 1)


def _train(kld_weight):
    torch.manual_seed(0)
    x = _images(2048, torch.Generator().manual_seed(1))
    model = VAE()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(6):
        for i in range(0, len(x), 64):
            recons, mu, logvar = model(x[i : i + 64])
            rec = F.mse_loss(recons, x[i : i + 64])
            kld = torch.mean(-0.5 * torch.sum(1 + logvar - mu**2 - logvar.exp(), dim=1), dim=0)
            loss = rec + kld_weight * kld
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        recons, mu, logvar = model(x[:256])
        rec = F.mse_loss(recons, x[:256]).item()
        kld = torch.mean(-0.5 * torch.sum(1 + logvar - mu**2 - logvar.exp(), dim=1)).item()
        spread = recons.std(0).mean().item()
    return rec, kld, spread


def _check() -> str:
    rec1, kld1, spread1 = _train(1.0)
    recm, kldm, spreadm = _train(0.00025)
    assert kld1 < 0.05 * LATENT and spread1 < 0.05, (kld1, spread1)
    assert recm < 0.5 * rec1 and spreadm > 5 * spread1, (rec1, recm, spread1, spreadm)
    return (
        f"kld_weight 1: KL {kld1:.3f} nats, recon MSE {rec1:.4f}, reconstructions vary by {spread1:.4f} across "
        f"inputs; kld_weight 0.00025 (the default M_N): KL {kldm:.1f}, recon MSE {recm:.4f}, spread {spreadm:.3f}"
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
