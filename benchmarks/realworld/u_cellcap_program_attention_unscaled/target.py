"""CellCap-style model: each cell's basal latent attends over learned response programs with a raw dot product."""
import torch
from torch import nn


class ProgramAttention(nn.Module):
    def __init__(self, n_genes=100, K=128, Q=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(n_genes, 128), nn.ReLU(), nn.Linear(128, K), nn.LayerNorm(K))  # latent ~ unit scale
        self.keys = nn.Parameter(torch.randn(Q, K))          # one key per response program
        self.programs = nn.Parameter(torch.randn(Q, n_genes) * 0.1)
        self.decoder = nn.Linear(K, n_genes)

    def attention(self, x):
        z = self.encoder(x)
        scores = z @ self.keys.T                              # (cells, Q), no 1/sqrt(K)
        return z, torch.softmax(scores, dim=-1)

    def forward(self, x):
        z, beta = self.attention(x)
        return self.decoder(z) + beta @ self.programs


def make_data(n=256, n_genes=100, Q=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    base = torch.randn(n, n_genes, generator=g) * 0.5
    progs = torch.randn(Q, n_genes, generator=g)
    mix = torch.softmax(torch.randn(n, Q, generator=g), dim=1)   # cells use a blend of programs
    return base, base + mix @ progs


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    return {"model": ProgramAttention(), "batch": (x, y), "loss_fn": nn.MSELoss(),
            "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3)}
