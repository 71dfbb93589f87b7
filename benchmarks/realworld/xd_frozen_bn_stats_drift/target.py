"""Partial fine-tuning: a pretrained conv backbone (with BatchNorm) is frozen with requires_grad=False and
a new head is trained on top; both live in one nn.Module. Validation runs every few steps and the
loop switches the whole module back with model.train() afterwards."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(32)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.relu(self.bn2(self.conv2(x)))
        return x.mean(dim=(2, 3))


class FineTuneNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.backbone = Backbone()
        self.head = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, n_classes))
        for p in self.backbone.parameters():
            p.requires_grad = False          # "fixed" part

    def forward(self, x):
        return self.head(self.backbone(x))


def _pretend_pretrained(backbone):
    # running statistics as they came out of pre-training on the source domain
    g = torch.Generator().manual_seed(7)
    with torch.no_grad():
        src = torch.randn(256, 3, 16, 16, generator=g)
        backbone.train()
        for bn in (backbone.bn1, backbone.bn2):
            bn.momentum = None                # cumulative average over the source batches
        for chunk in src.split(32):
            backbone(chunk)
        for bn in (backbone.bn1, backbone.bn2):
            bn.momentum = 0.1
        backbone.eval()


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    x = torch.randn(n, 3, 16, 16, generator=g) * 2.5 + 1.5     # target domain: brighter, higher contrast
    x[:, y % 3] += 1.0 + (y >= 3).float().view(-1, 1, 1)
    return x, y


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    model.train()                            # back to training after the periodic inference pass
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def evaluate(model, batch):
    model.eval()
    with torch.no_grad():
        out = model(batch[0])
    model.train()
    return out


def make_target():
    torch.manual_seed(0)
    model = FineTuneNet()
    _pretend_pretrained(model.backbone)
    x, y = make_data(64, seed=1)
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda model: torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-2),
        "train_step": train_step,
        "eval_fn": evaluate,
        "train_data": (x, y),
        "val_data": make_data(64, seed=2),
    }
