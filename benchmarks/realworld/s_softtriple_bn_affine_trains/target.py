"""Embedding network with BatchNorm, trained with a 'freeze BN' option that only switches BN modules to eval()."""

import torch
from torch import nn
import torch.nn.functional as F


class EmbedNet(nn.Module):
    def __init__(self, d_in=32, d_hid=64, d_emb=16):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Linear(d_in, d_hid), nn.BatchNorm1d(d_hid), nn.ReLU(),
            nn.Linear(d_hid, d_hid), nn.BatchNorm1d(d_hid), nn.ReLU(),
        )
        self.embed = nn.Linear(d_hid, d_emb)

    def forward(self, x):
        return F.normalize(self.embed(self.backbone(x)), dim=-1)


class ProxyLoss(nn.Module):
    """Proxy-based softmax loss (one learnable centre per class), a stand-in for SoftTriple."""

    def __init__(self, n_classes=8, d_emb=16, scale=16.0):
        super().__init__()
        self.centers = nn.Parameter(torch.randn(n_classes, d_emb))
        self.scale = scale

    def forward(self, emb, y):
        logits = self.scale * emb @ F.normalize(self.centers, dim=-1).T
        return F.cross_entropy(logits, y)


FREEZE_BN = True
criterion = ProxyLoss()


def loss_fn(emb, y):
    return criterion(emb, y)


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    model.train()
    if FREEZE_BN:
        for m in model.modules():
            if isinstance(m, nn.BatchNorm1d):
                m.eval()
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def make_model():
    torch.manual_seed(0)
    model = EmbedNet()
    # 'pretrained' BN statistics and affine parameters
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.BatchNorm1d):
                m.running_mean.normal_(0, 0.1)
                m.running_var.uniform_(0.5, 1.5)
                m.weight.uniform_(0.8, 1.2)
                m.bias.normal_(0, 0.05)
    return model


def make_target():
    model = make_model()
    g = torch.Generator().manual_seed(1)
    x = torch.randn(64, 32, generator=g)
    y = torch.randint(0, 8, (64,), generator=g)
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": loss_fn,
        "train_step": train_step,
        "optimizer": lambda p: torch.optim.Adam(
            [{"params": list(p), "lr": 1e-3}, {"params": criterion.parameters(), "lr": 1e-2}]
        ),
    }
