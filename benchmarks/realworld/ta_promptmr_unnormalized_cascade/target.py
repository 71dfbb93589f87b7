"""Unrolled MRI reconstruction (PromptMR+-like, tiny): a cascade of refinement blocks, each adding a conv-net
correction to the current image estimate. Target: the fully-sampled image; loss: L1."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RefineBlock(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.inp = nn.Conv2d(2, ch, 3, padding=1)
        self.mid = nn.Conv2d(ch, ch, 3, padding=1)
        self.out = nn.Conv2d(ch, 2, 3, padding=1)
        for conv in (self.inp, self.mid, self.out):
            nn.init.kaiming_normal_(conv.weight, nonlinearity="relu")
            nn.init.zeros_(conv.bias)

    def forward(self, x):
        h = F.leaky_relu(self.inp(x), 0.1)
        h = F.leaky_relu(self.mid(h), 0.1)
        return self.out(h)


class Cascade(nn.Module):
    def __init__(self, n_cascades=10, ch=8):
        super().__init__()
        self.cascades = nn.ModuleList(RefineBlock(ch) for _ in range(n_cascades))

    def forward(self, x):                       # x: (B, 2, H, W) real/imag of the zero-filled image
        for block in self.cascades:
            x = x + block(x)
        return x


def make_target():
    torch.manual_seed(0)
    target = torch.randn(4, 2, 16, 16) * 0.3
    zero_filled = target + 0.1 * torch.randn_like(target)
    return {
        "model": Cascade(),
        "batch": (zero_filled, target),
        "loss_fn": lambda out, y: F.l1_loss(out, y),
        "optimizer": lambda p: torch.optim.Adam(p, lr=2e-4),
    }
