"""Multi-label image tagger trained with a binary focal loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0, alpha=0.25, reduction="mean"):
        super().__init__()
        self.gamma, self.alpha, self.reduction = gamma, alpha, reduction

    def forward(self, inputs, targets):
        probs = torch.sigmoid(inputs)
        bce = F.binary_cross_entropy_with_logits(probs, targets, reduction="none")
        p_t = probs * targets + (1 - probs) * (1 - targets)
        alpha_t = self.alpha * targets + (1 - self.alpha) * (1 - targets)
        loss = alpha_t * (1 - p_t) ** self.gamma * bce
        return loss.mean() if self.reduction == "mean" else loss.sum()


class Tagger(nn.Module):
    def __init__(self, n_tags=6):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.fc = nn.Linear(16 * 16, n_tags)

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))


def images(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = (torch.rand(n, 6, generator=g) < 0.3).float()
    colors = torch.randn(6, 3, 1, 1, generator=torch.Generator().manual_seed(5))
    x = 0.5 * torch.randn(n, 3, 16, 16, generator=g) + (y[:, :, None, None, None] * colors).sum(1)
    return x, y


def make_target():
    torch.manual_seed(0)
    model = Tagger()
    x, y = images(64, 1)
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": FocalLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": images(512, 2),
    }
