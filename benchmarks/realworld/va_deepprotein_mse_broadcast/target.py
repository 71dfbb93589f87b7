"""Protein property regression: amino-acid CNN encoder + MLP head, trained with MSE."""
import torch
import torch.nn as nn

AA = 21


class ProteinCNN(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.embed = nn.Embedding(AA, dim)
        self.conv = nn.Sequential(nn.Conv1d(dim, dim, 5, padding=2), nn.ReLU(), nn.Conv1d(dim, dim, 5, padding=2), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, seq):
        h = self.conv(self.embed(seq).transpose(1, 2)).mean(dim=2)
        return self.head(h)


def proteins(n, seed):
    g = torch.Generator().manual_seed(seed)
    seq = torch.randint(0, AA, (n, 50), generator=g)
    hydrophobic = (seq < 8).float().mean(1)
    label = 10 * hydrophobic + 0.1 * torch.randn(n, generator=g)      # e.g. a stability score, shape (n,)
    return seq, label


def make_target():
    torch.manual_seed(0)
    model = ProteinCNN()
    x, y = proteins(64, 1)
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": proteins(512, 2),
        "val_data": proteins(128, 3),
    }
