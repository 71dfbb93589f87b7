import torch
from torch import nn


def weights_init(m):
    if isinstance(m, (nn.Conv3d, nn.ConvTranspose3d)):
        nn.init.normal_(m.weight, 0.0, 0.02)
        nn.init.constant_(m.bias, -0.1)


class VoxelCompletion(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv3d(1, 8, 4, 2, 1), nn.ReLU(),
            nn.Conv3d(8, 16, 4, 2, 1), nn.ReLU(),
        )
        self.decoder = nn.Sequential(
            nn.ConvTranspose3d(16, 8, 4, 2, 1), nn.ReLU(),
            nn.ConvTranspose3d(8, 1, 4, 2, 1), nn.ReLU(),
        )
        self.apply(weights_init)

    def forward(self, partial):
        return self.decoder(self.encoder(partial))


def make_shapes(n=8, size=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    full = torch.zeros(n, 1, size, size, size)
    for i in range(n):
        lo = torch.randint(2, 6, (3,), generator=g)
        hi = lo + torch.randint(5, 9, (3,), generator=g)
        full[i, 0, lo[0]:hi[0], lo[1]:hi[1], lo[2]:hi[2]] = 1.0
    partial = full.clone()
    partial[:, :, :, :, size // 2:] = 0.0
    return partial, full


def make_target():
    torch.manual_seed(0)
    return {
        "model": VoxelCompletion(),
        "batch": make_shapes(),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }
