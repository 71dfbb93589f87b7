"""Small inpainting network; the user's run stops after a short budget of steps."""
import torch
import torch.nn as nn

STEPS_RUN = 15  # what the user trained, scaled down


class InpaintNet(nn.Module):
    """Coarse completion network over a small image (flattened), scaled down from the real generator."""

    def __init__(self, size=8, hidden=128):
        super().__init__()
        self.size = size
        self.net = nn.Sequential(nn.Linear(4 * size * size, hidden), nn.ReLU(), nn.Linear(hidden, 3 * size * size))

    def forward(self, masked, mask):
        n = masked.shape[0]
        out = self.net(torch.cat([masked, mask], dim=1).reshape(n, -1))
        return out.reshape(n, 3, self.size, self.size)


def make_images(n=16, size=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, size), torch.linspace(-1, 1, size), indexing="ij")
    freq = torch.rand(n, 3, 1, 1, generator=g) * 3 + 1
    phase = torch.rand(n, 3, 1, 1, generator=g) * 6.28
    img = torch.sin(freq * xx + phase) * torch.cos(freq * yy)
    mask = torch.zeros(n, 1, size, size)
    mask[:, :, 2:6, 2:6] = 1.0
    return img * (1 - mask), mask, img


def make_target():
    torch.manual_seed(0)
    masked, mask, img = make_images()
    return {
        "model": InpaintNet(),
        "batch": ((masked, mask), img),
        "loss_fn": nn.L1Loss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
    }
