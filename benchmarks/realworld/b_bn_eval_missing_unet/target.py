"""Tiny 3-D conv segmenter with BatchNorm whose validation routine never calls model.eval()."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyUNet3D(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv3d(1, c, 3, padding=1), nn.BatchNorm3d(c), nn.ReLU())
        self.mid = nn.Sequential(nn.Conv3d(c, c, 3, padding=1), nn.BatchNorm3d(c), nn.ReLU())
        self.out = nn.Conv3d(2 * c, 1, 1)

    def forward(self, x):
        e = self.enc(x)
        m = self.mid(F.max_pool3d(e, 2))
        m = F.interpolate(m, scale_factor=2, mode="nearest")
        return self.out(torch.cat([e, m], dim=1))


def eval_fn(model, batch):
    x, _ = batch
    # BUG: no model.eval() -> BatchNorm uses this batch's statistics and updates running stats
    with torch.no_grad():
        return model(x)


def make_target():
    torch.manual_seed(0)
    model = TinyUNet3D()
    # some pretend training so that running stats are meaningful
    x_train = torch.randn(8, 1, 8, 8, 8) * 2 + 1
    with torch.no_grad():
        for _ in range(5):
            model(x_train)
    x = torch.randn(4, 1, 8, 8, 8) * 2 + 1
    y = (x > 1).float()
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.BCEWithLogitsLoss(),
        "eval_fn": eval_fn,
    }
