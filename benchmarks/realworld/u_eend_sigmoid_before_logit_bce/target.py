"""End-to-end diarization (EEND-style): frame-wise speaker activity with a sigmoid added to the model output."""
import torch
from torch import nn
import torch.nn.functional as F


class EENDLike(nn.Module):
    def __init__(self, feat=23, hidden=64, n_spk=2):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(feat, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.out = nn.Linear(hidden, n_spk)

    def forward(self, x):                       # x: (B, T, feat)
        return torch.sigmoid(self.out(self.enc(x)))   # speaker activity probabilities, as in the paper


def diarization_loss(ys, ts):
    # training criterion of the recipe: sigmoid cross entropy on the network outputs
    return F.binary_cross_entropy_with_logits(ys, ts)


def make_data(B=16, T=50, feat=23, seed=0):
    g = torch.Generator().manual_seed(seed)
    ts = (torch.rand(B, T, 2, generator=g) < 0.4).float()
    proj = torch.randn(2, feat, generator=g)
    x = ts @ proj + 0.3 * torch.randn(B, T, feat, generator=g)
    return x, ts


def make_target():
    torch.manual_seed(0)
    x, ts = make_data()
    return {"model": EENDLike(), "batch": (x, ts), "loss_fn": diarization_loss,
            "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3)}
