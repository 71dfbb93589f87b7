"""A bidirectional GRU encoder for token sequences that flattens its final hidden state into a latent code."""

import torch
from torch import nn


class GRUEncoder(nn.Module):
    def __init__(self, vocab=30, emb=16, cell=24, n_layers=2, latent=8):
        super().__init__()
        self.n_layers, self.cell = n_layers, cell
        self.embed = nn.Embedding(vocab, emb)
        self.gru = nn.GRU(emb, cell, num_layers=n_layers, bidirectional=True, batch_first=True)
        self.to_mu = nn.Linear(2 * cell, latent)

    def forward(self, ids):
        batch_size = ids.shape[0]
        _, hidden = self.gru(self.embed(ids))  # (layers * 2, batch, cell)
        hidden = hidden.view(self.n_layers, 2, batch_size, self.cell)[-1]  # (2, batch, cell)
        hidden = hidden.reshape(batch_size, self.cell * 2)
        return self.to_mu(hidden)


def make_target():
    torch.manual_seed(0)
    ids = torch.randint(0, 30, (6, 12))
    z_target = torch.randn(6, 8)
    return {
        "model": GRUEncoder(),
        "batch": (ids, z_target),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }
