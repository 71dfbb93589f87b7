"""Factorization machine (Rendle 2010) fitted with SGD on Boston-housing style tabular features, as they come."""
import torch
import torch.nn as nn

# column means / stds of the 13 Boston housing features (CRIM, ZN, INDUS, CHAS, NOX, RM, AGE, DIS, RAD, TAX,
# PTRATIO, B, LSTAT)
_MEAN = torch.tensor([3.61, 11.36, 11.14, 0.07, 0.55, 6.28, 68.57, 3.80, 9.55, 408.24, 18.46, 356.67, 12.65])
_STD = torch.tensor([8.60, 23.32, 6.86, 0.25, 0.12, 0.70, 28.15, 2.11, 8.71, 168.54, 2.16, 91.29, 7.14])


class FM(nn.Module):
    def __init__(self, n_features, num_factors=7):
        super().__init__()
        self.w0 = nn.Parameter(torch.zeros(1))
        self.w = nn.Linear(n_features, 1, bias=False)
        self.v = nn.Parameter(torch.randn(n_features, num_factors) * 0.1)
        nn.init.zeros_(self.w.weight)

    def forward(self, x):
        linear = self.w0 + self.w(x).squeeze(-1)
        xv = x @ self.v
        x2v2 = (x ** 2) @ (self.v ** 2)
        pairwise = 0.5 * (xv ** 2 - x2v2).sum(-1)
        return linear + pairwise


def load_housing(n=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    z = torch.randn(n, 13, generator=g)
    x = (_MEAN + _STD * z).clamp(min=0.0)
    x[:, 3] = (x[:, 3] > 0.5).float()
    price = 22.5 + 6.0 * z[:, 5] - 5.0 * z[:, 12] - 2.0 * z[:, 10] - 1.5 * z[:, 0] + 1.0 * torch.randn(n, generator=g)
    return x, price.clamp(5.0, 50.0)


def make_target():
    torch.manual_seed(0)
    x, y = load_housing()
    return {
        "model": FM(13),
        "batch": (x, y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.01),
        "val_data": [load_housing(seed=1)],
    }
