"""Tiny U-Net style segmenter (BatchNorm in every block) with a dice-score validation routine."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TinyUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.down1 = block(1, 8)
        self.down2 = block(8, 16)
        self.up = block(16 + 8, 8)
        self.head = nn.Conv2d(8, 1, 1)

    def forward(self, x):
        a = self.down1(x)
        b = self.down2(F.max_pool2d(a, 2))
        u = F.interpolate(b, scale_factor=2, mode="nearest")
        return self.head(self.up(torch.cat([u, a], 1)))


def dice(logits, masks):
    pred = (torch.sigmoid(logits) > 0.5).float()
    inter = (pred * masks).sum((1, 2, 3))
    return ((2 * inter + 1) / (pred.sum((1, 2, 3)) + masks.sum((1, 2, 3)) + 1)).mean().item()


def eval_net(net, batch):
    images, _ = batch
    with torch.no_grad():
        return net(images)


def _scans(n, seed):
    g = torch.Generator().manual_seed(seed)
    masks = torch.zeros(n, 1, 16, 16)
    for i in range(n):
        r, c = torch.randint(2, 10, (2,), generator=g).tolist()
        masks[i, 0, r:r + 5, c:c + 5] = 1
    brightness = 0.5 + 2.0 * torch.rand(n, 1, 1, 1, generator=g)   # scans differ a lot in exposure
    images = brightness * (0.3 + masks) + 0.1 * torch.randn(n, 1, 16, 16, generator=g)
    return images, masks


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    model.train()
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def make_target():
    torch.manual_seed(0)
    return {
        "model": TinyUNet(),
        "batch": _scans(8, 1),
        "loss_fn": nn.BCEWithLogitsLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_step": train_step,
        "eval_fn": eval_net,
        "metric_fn": dice,
        "train_data": _scans(64, 2),
        "val_data": _scans(32, 3),
    }
