"""Body-shape fit with a weight-matching term that exponentiates the subject's weight (kg)."""

import torch
import torch.nn as nn

N_BETAS = 10


class ShapeFit(nn.Module):
    """Shape coefficients -> predicted height (m) and mass (kg) through a fixed linear body model."""

    def __init__(self):
        super().__init__()
        self.betas = nn.Parameter(torch.zeros(1, N_BETAS))
        g = torch.Generator().manual_seed(0)
        self.register_buffer("h_dir", 0.03 * torch.randn(N_BETAS, generator=g))
        self.register_buffer("m_dir", 6.0 * torch.randn(N_BETAS, generator=g))

    def forward(self, dummy):
        height = 1.70 + self.betas @ self.h_dir
        mass = 70.0 + self.betas @ self.m_dir
        return torch.stack([height, mass], -1).expand(dummy.shape[0], 2)


def measurements_loss(out, target):
    height, mass = out[:, 0], out[:, 1]
    t_height, t_mass = target[:, 0], target[:, 1]
    gap = mass - t_mass  # kg
    # smooth two-sided penalty on the mass gap, written out as log(1 + exp(.))
    mass_term = torch.log(1 + torch.exp(gap)) + torch.log(1 + torch.exp(-gap))
    return 100 * ((height - t_height) ** 2).mean() + mass_term.mean()


def make_target(weight_kg=160.0):
    torch.manual_seed(0)
    target = torch.tensor([[1.80, weight_kg]])
    return {"model": ShapeFit(), "batch": (torch.zeros(1, 1), target), "loss_fn": measurements_loss,
            "optimizer": lambda p: torch.optim.Adam(p, lr=5e-2)}
