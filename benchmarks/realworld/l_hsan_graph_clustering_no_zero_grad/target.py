"""HSAN-style attributed-graph clustering: two MLP views over smoothed node features, trained to match the
cross-view similarity matrix to the (self-looped, normalised) adjacency."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, N_FEAT = 60, 24


def _graph(seed=0):
    g = torch.Generator().manual_seed(seed)
    comm = torch.arange(N_NODES) % 3
    p = torch.where(comm[:, None] == comm[None], 0.3, 0.02)
    a = (torch.rand(N_NODES, N_NODES, generator=g) < p).float()
    a = torch.triu(a, 1)
    a = a + a.T + torch.eye(N_NODES)
    d = a.sum(1).rsqrt()
    a_norm = d[:, None] * a * d[None]
    x = torch.randn(3, N_FEAT, generator=g)[comm] + 0.8 * torch.randn(N_NODES, N_FEAT, generator=g)
    x_s = a_norm @ a_norm @ x  # Laplacian smoothing, as in the paper's preprocessing
    return x_s, a_norm


class HSANLike(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.v1 = nn.Sequential(nn.Linear(N_FEAT, d), nn.Tanh(), nn.Linear(d, d))
        self.v2 = nn.Sequential(nn.Linear(N_FEAT, d), nn.Tanh(), nn.Linear(d, d))

    def forward(self, x):
        z1 = F.normalize(self.v1(x), dim=1)
        z2 = F.normalize(self.v2(x), dim=1)
        return z1 @ z2.T


def similarity_loss(sim, a_norm):
    return F.mse_loss(sim, a_norm)


def train_step(model, batch, optimizer, loss_fn):
    x, a = batch
    loss = loss_fn(model(x), a)
    loss.backward()
    optimizer.step()
    return loss


def make_target():
    torch.manual_seed(0)
    x, a = _graph()
    return {
        "model": HSANLike(),
        "batch": (x, a),
        "loss_fn": similarity_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_step": train_step,
        "train_data": [(x, a)],
    }
