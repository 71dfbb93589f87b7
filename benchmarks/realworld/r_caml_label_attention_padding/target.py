"""CAML-style model: embeddings -> conv1d -> per-label attention over positions -> per-label logits."""
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


class CAML(nn.Module):
    def __init__(self, vocab=100, d=16, n_labels=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=PAD)
        self.conv = nn.Conv1d(d, d, 3, padding=1)
        self.U = nn.Linear(d, n_labels, bias=False)
        self.final = nn.Linear(d, n_labels)

    def forward(self, ids):
        h = torch.tanh(self.conv(self.emb(ids).transpose(1, 2))).transpose(1, 2)  # (B, T, d)
        alpha = F.softmax(self.U(h).transpose(1, 2), dim=2)  # (B, labels, T)
        m = alpha @ h  # (B, labels, d)
        return (self.final.weight * m).sum(2) + self.final.bias


def make_target():
    torch.manual_seed(0)
    lengths = torch.tensor([30, 12, 20, 8, 25, 16, 30, 10])
    ids = torch.zeros(8, 30, dtype=torch.long)
    for i, n in enumerate(lengths):
        ids[i, :n] = torch.randint(1, 100, (int(n),))
    y = (torch.rand(8, 5) < 0.3).float()
    return {
        "model": CAML(),
        "batch": (ids, y),
        "loss_fn": nn.BCEWithLogitsLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }
