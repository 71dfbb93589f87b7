"""Gene-expression autoencoder with ReLU layers; encoder biases initialised to -1 for 'sparse' codes."""

import torch
from torch import nn

N_GENES = 200


def expression(n=256):
    g = torch.Generator().manual_seed(0)
    z = torch.randn(n, 8, generator=g)
    load = torch.randn(8, N_GENES, generator=g)
    x = torch.sigmoid(z @ load / 2)  # min-max-like scaled values in [0, 1]
    return x


class AE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(N_GENES, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU())
        self.dec = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, N_GENES))
        for m in self.modules():
            if isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, std=0.01)
                nn.init.constant_(m.bias, -1.0)  # push units off for sparse codes
        nn.init.zeros_(self.dec[-1].bias)

    def forward(self, x):
        return self.dec(self.enc(x))


def make_target():
    torch.manual_seed(0)
    x = expression()
    return {
        "model": AE(),
        "batch": (x[:64], x[:64]),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (x[:192], x[:192]),
        "val_data": (x[192:], x[192:]),
    }
