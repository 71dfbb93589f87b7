"""Point-cloud segmentation backbone (BatchNorm + dropout) as the pre-training loop leaves it after the first validation:
in eval mode, with a training step that never calls model.train()."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_PTS, N_CLASSES = 256, 5


class PointSegNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Sequential(nn.Conv1d(3, 32, 1), nn.BatchNorm1d(32), nn.LeakyReLU(0.2))
        self.conv2 = nn.Sequential(nn.Conv1d(32, 64, 1), nn.BatchNorm1d(64), nn.LeakyReLU(0.2))
        self.head = nn.Sequential(nn.Conv1d(32 + 64 + 64, 64, 1), nn.BatchNorm1d(64), nn.LeakyReLU(0.2),
                                  nn.Dropout(0.5), nn.Conv1d(64, N_CLASSES, 1))

    def forward(self, pts):  # (B, 3, N)
        f1 = self.conv1(pts)
        f2 = self.conv2(f1)
        glob = f2.max(dim=2, keepdim=True)[0].expand(-1, -1, pts.shape[2])
        return self.head(torch.cat([f1, f2, glob], dim=1))  # (B, C, N)


def make_clouds(n, g):
    pts = torch.rand(n, 3, N_PTS, generator=g) * torch.tensor([4.0, 4.0, 3.0]).view(1, 3, 1) + 5.0
    labels = (pts[:, 0] - 5.0).floor().clamp(0, 3).long()
    labels[pts[:, 2] > 7.5] = 4  # "ceiling"
    return pts, labels


def evaluate(model, clouds):
    model.eval()
    with torch.no_grad():
        pts, labels = clouds
        return (model(pts).argmax(1) == labels).float().mean().item()


def train_step(model, batch, optimizer, loss_fn):
    pts, labels = batch
    optimizer.zero_grad()
    loss = loss_fn(model(pts), labels)
    loss.backward()
    optimizer.step()
    return loss


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = PointSegNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    model.train()
    for _ in range(3):  # first epoch, in train mode
        train_step(model, make_clouds(8, g), opt, F.cross_entropy)
    evaluate(model, make_clouds(8, g))  # periodic validation -> model.eval(), never undone
    return {
        "model": model,
        "batch": make_clouds(8, g),
        "loss_fn": F.cross_entropy,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_step": train_step,
        "eval_fn": evaluate,
    }
