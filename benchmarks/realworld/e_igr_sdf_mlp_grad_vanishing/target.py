"""A deep plain MLP (softplus, PyTorch's default Linear init, no skip connections) predicting the signed distance
of 3-D query points from [xyz, shape code]; the loss has a distance term and a normal (gradient) term."""

import torch
import torch.nn as nn
import torch.nn.functional as F

CODE = 16


class SDFNet(nn.Module):
    def __init__(self, width=64, depth=14):
        super().__init__()
        dims = [3 + CODE] + [width] * depth
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.out = nn.Linear(width, 1)
        self.act = nn.Softplus(beta=100)

    def forward(self, x):
        h = x
        for lin in self.layers:
            h = self.act(lin(h))
        return self.out(h).squeeze(-1)


def _points(n, seed):
    g = torch.Generator().manual_seed(seed)
    code = torch.randn(n, CODE, generator=g) * 0.1
    radius = 0.5 + 0.3 * code[:, 0].tanh()
    xyz = torch.rand(n, 3, generator=g) * 2 - 1
    sdf = xyz.norm(dim=1) - radius
    normals = F.normalize(xyz, dim=1)
    return torch.cat([xyz, code], 1), torch.cat([sdf[:, None], normals], 1)


def sdf_loss(pred, target):
    """The distance term (target columns: sdf, normal xyz); the normal term needs the input points and is
    added in the training loop."""
    return F.l1_loss(pred, target[:, 0])


def make_target():
    torch.manual_seed(0)
    x, y = _points(2048, 1)
    return {
        "model": SDFNet(),
        "batch": (x[:256], y[:256]),
        "loss_fn": sdf_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-4),
        "train_data": (x, y),
        "val_data": _points(512, 2),
    }
