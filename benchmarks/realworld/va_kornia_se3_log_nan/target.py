"""Visual-odometry pose head: predicts relative rotation (axis-angle) between two frame embeddings; geodesic loss via log map."""
import torch
import torch.nn as nn


def hat(w):
    z = torch.zeros_like(w[..., 0])
    return torch.stack([torch.stack([z, -w[..., 2], w[..., 1]], -1),
                        torch.stack([w[..., 2], z, -w[..., 0]], -1),
                        torch.stack([-w[..., 1], w[..., 0], z], -1)], -2)


def so3_exp(w):
    return torch.linalg.matrix_exp(hat(w))


def so3_log(R):
    cos = ((R.diagonal(dim1=-2, dim2=-1).sum(-1) - 1) / 2).clamp(-1.0, 1.0)
    theta = torch.acos(cos)
    vee = torch.stack([R[..., 2, 1] - R[..., 1, 2], R[..., 0, 2] - R[..., 2, 0], R[..., 1, 0] - R[..., 0, 1]], -1)
    return (theta / (2 * torch.sin(theta)))[..., None] * vee


class PoseNet(nn.Module):
    def __init__(self, feat=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2 * feat, 64), nn.ReLU(), nn.Linear(64, 3))
        nn.init.zeros_(self.mlp[2].weight)
        nn.init.zeros_(self.mlp[2].bias)

    def forward(self, f0, f1):
        return so3_exp(self.mlp(torch.cat([f0, f1], -1)))


def geodesic_loss(R_pred, R_gt):
    return so3_log(R_pred.transpose(-1, -2) @ R_gt).norm(dim=-1).mean()


def frames(n, seed):
    g = torch.Generator().manual_seed(seed)
    f0 = torch.randn(n, 32, generator=g)
    w = 0.2 * torch.randn(n, 3, generator=g)
    still = torch.rand(n, generator=g) < 0.3          # the camera often does not move between frames
    w[still] = 0.0
    f1 = f0 + torch.cat([w, torch.zeros(n, 29)], 1)
    return (f0, f1), so3_exp(w)


def make_target():
    torch.manual_seed(0)
    model = PoseNet()
    batch = frames(32, 1)
    return {
        "model": model,
        "batch": batch,
        "loss_fn": geodesic_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": [frames(32, s) for s in range(2, 12)],
    }
