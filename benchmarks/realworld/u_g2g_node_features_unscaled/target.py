"""Gaussian node embeddings (Graph2Gauss-style) trained on raw, unscaled node attributes."""
import torch
from torch import nn
import torch.nn.functional as F


class GaussEncoder(nn.Module):
    def __init__(self, d_in=32, hidden=64, L=16):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU())
        self.mu = nn.Linear(hidden, L)
        self.sig = nn.Linear(hidden, L)

    def forward(self, x):
        h = self.body(x)
        return self.mu(h), F.elu(self.sig(h)) + 1 + 1e-14


def kl_energy(mu, sig, i, j):
    # KL(N_j || N_i) for diagonal Gaussians
    mi, mj, si, sj = mu[i], mu[j], sig[i], sig[j]
    L = mu.shape[1]
    return 0.5 * ((sj / si).sum(-1) + ((mi - mj) ** 2 / si).sum(-1) - L - torch.log(sj / si).sum(-1))


def energy_loss(out, triplets):
    mu, sig = out
    i, j, k = triplets[:, 0], triplets[:, 1], triplets[:, 2]
    e_pos = kl_energy(mu, sig, i, j)
    e_neg = kl_energy(mu, sig, i, k)
    return (e_pos ** 2 + torch.exp(-e_neg)).mean()


def make_data(n=64, d=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    comm = torch.arange(n) % 4
    centers = torch.rand(4, d, generator=g) * 4000.0   # raw attribute values in the thousands
    x = centers[comm] + torch.rand(n, d, generator=g) * 500.0
    # triplets: j in the same community as i (close), k in another community (far)
    trip = []
    for i in range(n):
        same = [j for j in range(n) if comm[j] == comm[i] and j != i]
        other = [k for k in range(n) if comm[k] != comm[i]]
        trip.append((i, same[i % len(same)], other[(3 * i) % len(other)]))
    return x, torch.tensor(trip)


def make_target():
    torch.manual_seed(0)
    x, trip = make_data()
    model = GaussEncoder()
    return {"model": model, "batch": (x, trip), "loss_fn": energy_loss,
            "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3)}
