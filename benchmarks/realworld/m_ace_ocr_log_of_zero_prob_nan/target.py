"""Text-line recognition with the Aggregation Cross-Entropy (ACE) loss: per-time-step class probabilities are summed
over time and compared with the character counts of the label; the log is taken of the aggregated probabilities."""

import torch
from torch import nn

N_CLASSES = 12  # class 0 = blank
T = 16


class LineRecognizer(nn.Module):
    def __init__(self, feat=24, hidden=64):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(feat, hidden, 3, padding=1), nn.ReLU(),
                                  nn.Conv1d(hidden, hidden, 3, padding=1), nn.ReLU())
        self.cls = nn.Linear(hidden, N_CLASSES)

    def forward(self, x):  # x: (B, feat, T) column features of the text line image
        return self.cls(self.conv(x).transpose(1, 2))  # (B, T, C) logits


def ace_loss(logits, counts):
    """counts: (B, C) number of occurrences of each class in the label, blank count = T - label length."""
    probs = logits.softmax(dim=-1)
    agg = probs.sum(dim=1) / T
    target = counts / T
    return -(target * torch.log(agg)).sum(dim=-1).mean()


def make_lines(n, seed):
    g = torch.Generator().manual_seed(seed)
    glyph = torch.randn(N_CLASSES, 24, generator=g) * 3
    seq = torch.randint(1, 5, (n, T), generator=g)  # lines only ever use a few characters
    blank = torch.rand(n, T, generator=g) < 0.5
    seq[blank] = 0
    x = glyph[seq].transpose(1, 2) + 0.3 * torch.randn(n, 24, T, generator=g)
    counts = torch.stack([torch.bincount(s, minlength=N_CLASSES) for s in seq]).float()
    return x, counts


def make_target():
    torch.manual_seed(0)
    model = LineRecognizer()
    return {
        "model": model,
        "batch": make_lines(32, seed=1),
        "loss_fn": ace_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-2),
        "train_data": [make_lines(32, seed=s) for s in range(2, 42)],
    }
