"""Multi-head linear regression whose (heads x in x out) weight tensor is stored in Tucker form."""
import torch
import torch.nn as nn


class TuckerMultiHead(nn.Module):
    def __init__(self, n_heads=4, d_in=16, d_out=8, ranks=(3, 6, 4)):
        super().__init__()
        self.n_heads, self.d_in, self.d_out = n_heads, d_in, d_out
        self.register_parameter("tucker_core", nn.Parameter(torch.randn(*ranks) * 0.5))
        self.register_parameter("tucker_U0", nn.Parameter(torch.randn(n_heads, ranks[0]) / ranks[0] ** 0.5))
        self.register_parameter("tucker_U1", nn.Parameter(torch.randn(d_in, ranks[1]) / ranks[1] ** 0.5))
        self.register_parameter("tucker_U2", nn.Parameter(torch.randn(d_out, ranks[2]) / ranks[2] ** 0.5))
        self.bias = nn.Parameter(torch.zeros(n_heads, d_out))

    def full_weight(self):
        return torch.einsum("abc,na,ib,oc->nio", self.tucker_core, self.tucker_U0, self.tucker_U1, self.tucker_U2)

    def forward(self, x):
        weight = nn.Parameter(self.full_weight())
        return torch.einsum("bi,nio->bno", x, weight) + self.bias


def make_target():
    torch.manual_seed(0)
    teacher = torch.randn(4, 16, 8) * 0.3
    x = torch.randn(64, 16)
    y = torch.einsum("bi,nio->bno", x, teacher) + 0.01 * torch.randn(64, 4, 8)
    return {
        "model": TuckerMultiHead(),
        "batch": (x, y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
    }
