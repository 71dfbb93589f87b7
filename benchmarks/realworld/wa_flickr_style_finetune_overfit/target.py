"""Fine-tuning a classifier head on frozen 'pretrained' features for a 20-class style task with a small
training set. The code is ordinary: train mode for training, eval mode and no_grad for testing."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, FEAT = 20, 64


def make_split(n_per_class, seed, centers_seed=7):
    gc = torch.Generator().manual_seed(centers_seed)
    centers = torch.randn(N_CLASSES, FEAT, generator=gc) * 0.35
    g = torch.Generator().manual_seed(seed)
    y = torch.arange(N_CLASSES).repeat_interleave(n_per_class)
    x = centers[y] + torch.randn(len(y), FEAT, generator=g)
    perm = torch.randperm(len(y), generator=g)
    return x[perm], y[perm]


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(FEAT, 256), nn.ReLU(), nn.Dropout(0.1), nn.Linear(256, N_CLASSES))

    def forward(self, x):
        return self.net(x)


def loss_fn(logits, y):
    return F.cross_entropy(logits, y)


def train_step(model, batch, optimizer, loss_fn):
    model.train()
    x, y = batch
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def eval_fn(model, x):
    model.eval()
    with torch.no_grad():
        return model(x)


def metric_fn(logits, y):
    return (logits.argmax(-1) == y).float().mean().item()


def make_target():
    torch.manual_seed(0)
    train = make_split(8, seed=0)          # 160 training images for 20 styles
    test = make_split(50, seed=1)
    return {
        "model": Head(),
        "batch": train,
        "loss_fn": loss_fn,
        "train_step": train_step,
        "eval_fn": eval_fn,
        "metric_fn": metric_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": [train],
        "val_data": [test],
    }
