"""Pretrained encoder with BatchNorm, frozen once via a freeze() helper; the training step calls model.train()."""

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, d_in=16, d=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d_in, d), nn.BatchNorm1d(d), nn.ReLU(),
                                     nn.Linear(d, d), nn.BatchNorm1d(d), nn.ReLU())
        self.head = nn.Linear(d, 1)

    def freeze(self):
        for p in self.encoder.parameters():
            p.requires_grad = False
        for m in self.encoder.modules():
            if isinstance(m, nn.BatchNorm1d):
                m.eval()

    def forward(self, x):
        return self.head(self.encoder(x)).squeeze(-1)


def _pretrained():
    torch.manual_seed(0)
    net = Net()
    # 'pretraining' statistics: running stats from a broad source distribution
    g = torch.Generator().manual_seed(1)
    net.train()
    with torch.no_grad():
        for _ in range(50):
            net(torch.randn(64, 16, generator=g))
    return net


def train_step(model, batch, optimizer, loss_fn):
    model.train()
    x, y = batch
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss


def make_target():
    model = _pretrained()
    model.freeze()
    g = torch.Generator().manual_seed(2)
    # fine-tuning data: shifted, narrower distribution than pretraining
    x = torch.randn(32, 16, generator=g) * 0.3 + 1.5
    y = x[:, :4].sum(-1)
    xs = torch.randn(256, 16, generator=g) * 0.3 + 1.5
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam([q for q in p if q.requires_grad], lr=1e-2),
        "train_step": train_step,
        "train_data": (xs, xs[:, :4].sum(-1)),
    }
