"""Linear evaluation on top of a backbone frozen only through requires_grad=False (BatchNorm left in train mode)."""
import torch
from torch import nn


def deactivate_requires_grad(module):
    for p in module.parameters():
        p.requires_grad = False


class LinearEval(nn.Module):
    def __init__(self, d_in=16, d=32, n_cls=4):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(d_in, d), nn.BatchNorm1d(d), nn.ReLU(), nn.Linear(d, d), nn.BatchNorm1d(d))
        self.head = nn.Linear(d, n_cls)

    def forward(self, x):
        return self.head(self.backbone(x))


def make_target():
    torch.manual_seed(0)
    model = LinearEval()
    # "pretrained" statistics the backbone was trained with
    model.backbone[1].running_mean.fill_(0.3)
    model.backbone[4].running_var.fill_(2.0)
    deactivate_requires_grad(model.backbone)
    g = torch.Generator().manual_seed(0)
    x = torch.randn(64, 16, generator=g) * 2.0 + 1.0     # the downstream data is distributed differently
    y = torch.randint(0, 4, (64,), generator=g)

    def train_step(model, batch, optimizer, loss_fn):
        model.train()
        x, y = batch
        loss = loss_fn(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return loss

    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.SGD([q for q in p if q.requires_grad], lr=0.1),
        "train_step": train_step,
    }
