"""A very small YOLO-style grid detector (single class) on 32x32 frames: per cell objectness + box (x, y, w, h)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

GRID = 4
IMG = 32


class TinyYolo(nn.Module):
    def __init__(self, width=1):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.LeakyReLU(0.1), nn.MaxPool2d(2),
            nn.Conv2d(width, width, 3, padding=1), nn.LeakyReLU(0.1), nn.MaxPool2d(2),
            nn.Conv2d(width, width, 3, padding=1), nn.LeakyReLU(0.1), nn.MaxPool2d(2),
        )
        self.head = nn.Conv2d(width, 5, 1)

    def forward(self, x):
        return self.head(self.body(x))            # (B, 5, GRID, GRID)


def yolo_loss(pred, target):
    obj = target[:, 0]
    conf_loss = F.binary_cross_entropy_with_logits(pred[:, 0], obj)
    box_err = ((torch.sigmoid(pred[:, 1:]) - target[:, 1:]) ** 2).sum(1)
    coord_loss = 5.0 * (box_err * obj).sum() / obj.sum().clamp(min=1)
    return conf_loss + coord_loss


def make_frames(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = 0.1 * torch.rand(n, 1, IMG, IMG, generator=g)
    y = torch.zeros(n, 5, GRID, GRID)
    cell = IMG // GRID
    for i in range(n):
        for _ in range(int(torch.randint(1, 4, (1,), generator=g))):
            gi, gj = torch.randint(0, GRID, (2,), generator=g).tolist()
            w, h = torch.randint(3, 8, (2,), generator=g).tolist()
            cx = gj * cell + float(torch.rand(1, generator=g)) * cell
            cy = gi * cell + float(torch.rand(1, generator=g)) * cell
            x0, y0 = int(max(0, cx - w / 2)), int(max(0, cy - h / 2))
            x[i, 0, y0:y0 + h, x0:x0 + w] = 0.6 + 0.4 * float(torch.rand(1, generator=g))
            y[i, :, gi, gj] = torch.tensor([1.0, (cx - gj * cell) / cell, (cy - gi * cell) / cell, w / 8, h / 8])
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = make_frames(256, seed=0)
    vx, vy = make_frames(128, seed=1)
    return {
        "model": TinyYolo(),
        "batch": (x[:32], y[:32]),
        "loss_fn": yolo_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-2),
        "train_data": [(x[i:i + 32], y[i:i + 32]) for i in range(0, 256, 32)],
        "val_data": [(vx, vy)],
    }
