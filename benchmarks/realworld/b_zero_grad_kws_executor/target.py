"""Tiny keyword-spotting model (1-D conv over filterbank frames) with a training step lacking zero_grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class KWSNet(nn.Module):
    def __init__(self, n_mels=20, channels=32, n_keywords=1):
        super().__init__()
        self.conv1 = nn.Conv1d(n_mels, channels, kernel_size=3, padding=1)
        self.conv2 = nn.Conv1d(channels, channels, kernel_size=3, padding=1)
        self.head = nn.Linear(channels, n_keywords)

    def forward(self, feats):  # feats: (B, T, n_mels)
        h = feats.transpose(1, 2)
        h = F.relu(self.conv1(h))
        h = F.relu(self.conv2(h))
        h = h.max(dim=2).values
        return self.head(h).squeeze(-1)


def make_optimizer(params):
    return torch.optim.Adam(params, lr=1e-3)


def train_step(model, batch, optimizer, loss_fn):
    feats, target = batch
    model.train()
    logits = model(feats)
    loss = loss_fn(logits, target)
    loss.backward()       # BUG: no optimizer.zero_grad() anywhere in the loop
    optimizer.step()
    return loss


def make_target():
    torch.manual_seed(0)
    feats = torch.randn(32, 40, 20)
    target = (feats[:, 10:20, :5].mean(dim=(1, 2)) > 0).float()
    return {
        "model": KWSNet(),
        "batch": (feats, target),
        "loss_fn": nn.BCEWithLogitsLoss(),
        "optimizer": make_optimizer,
        "train_step": train_step,
    }
