"""CLAM-like attention-MIL slide classifier: a bag of patch features -> gated attention pooling -> slide logits.

The heatmap/inference routine scores every patch with the trained model and reads the attention and the prediction.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedAttention(nn.Module):
    def __init__(self, d=64, hidden=32, dropout=0.25):
        super().__init__()
        self.a = nn.Sequential(nn.Linear(d, hidden), nn.Tanh(), nn.Dropout(dropout))
        self.b = nn.Sequential(nn.Linear(d, hidden), nn.Sigmoid(), nn.Dropout(dropout))
        self.c = nn.Linear(hidden, 1)

    def forward(self, h):                      # h: (B, N, d)
        return self.c(self.a(h) * self.b(h)).squeeze(-1)   # (B, N)


class CLAMSingleBranch(nn.Module):
    def __init__(self, d_in=128, d=64, n_classes=2, dropout=0.25):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(d_in, d), nn.ReLU(), nn.Dropout(dropout))
        self.attention = GatedAttention(d, 32, dropout)
        self.classifier = nn.Linear(d, n_classes)

    def forward(self, x):                      # x: (B, N, d_in) patch features of B slides
        h = self.fc(x)
        att = torch.softmax(self.attention(h), dim=1)
        self.last_attention = att.detach()
        slide = torch.einsum("bn,bnd->bd", att, h)
        return self.classifier(slide)


def infer_slide(model, features):
    """Heatmap-time scoring of a slide's patches."""
    with torch.no_grad():
        logits = model(features)
    return logits


def make_target():
    torch.manual_seed(0)
    feats = torch.randn(4, 50, 128)
    labels = torch.tensor([0, 1, 1, 0])
    model = CLAMSingleBranch()
    return {
        "model": model,
        "batch": (feats, labels),
        "loss_fn": lambda logits, y: F.cross_entropy(logits, y),
        "eval_fn": infer_slide,
        "metric_fn": lambda logits, y: (logits.argmax(1) == y).float().mean().item(),
    }
