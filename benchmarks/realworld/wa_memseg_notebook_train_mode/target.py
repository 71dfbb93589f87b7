"""Tiny anomaly-segmentation net (BatchNorm encoder/decoder, 2-class mask logits), with the
training step used by the training script and the inference routine used by the notebook."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU())


class TinySeg(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc1 = block(3, 16)
        self.enc2 = block(16, 32)
        self.dec = block(32 + 16, 16)
        self.head = nn.Conv2d(16, 2, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        up = F.interpolate(e2, scale_factor=2, mode="nearest")
        return self.head(self.dec(torch.cat([up, e1], 1)))


def make_data(n=16, size=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    imgs = 0.5 + 0.1 * torch.randn(n, 3, size, size, generator=g)
    masks = torch.zeros(n, size, size, dtype=torch.long)
    for i in range(n):
        r, c = torch.randint(0, size - 4, (2,), generator=g).tolist()
        imgs[i, :, r:r + 4, c:c + 4] += 0.6          # a bright defect patch
        masks[i, r:r + 4, c:c + 4] = 1
    return imgs, masks


def loss_fn(logits, masks):
    return F.cross_entropy(logits, masks)


def train_step(model, batch, optimizer, loss_fn):
    model.train()
    x, y = batch
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def eval_fn(model, x):
    # inference.ipynb: load checkpoint, then predict
    with torch.no_grad():
        return model(x)


def metric_fn(logits, masks):
    pred = logits.argmax(1)
    inter = ((pred == 1) & (masks == 1)).sum().item()
    union = ((pred == 1) | (masks == 1)).sum().item()
    return inter / max(union, 1)


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    return {
        "model": TinySeg(),
        "batch": (x, y),
        "loss_fn": loss_fn,
        "train_step": train_step,
        "eval_fn": eval_fn,
        "metric_fn": metric_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "train_data": [make_data(seed=s) for s in range(4)],
        "val_data": [make_data(seed=10)],
    }
