"""Mention-pair relation classifier (4 classes) over concatenated pair embeddings."""
import torch
import torch.nn as nn


class PairClassifier(nn.Module):
    def __init__(self, vocab=200, dim=32, n_labels=4):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.mlp = nn.Sequential(nn.Linear(2 * dim, 64), nn.ReLU(), nn.Linear(64, n_labels))

    def forward(self, first, second):
        pair = torch.cat([self.emb(first), self.emb(second)], dim=-1)
        logits = self.mlp(pair)
        return torch.softmax(logits, dim=-1)          # probabilities handed to the loss


def _pairs(n, seed):
    g = torch.Generator().manual_seed(seed)
    a = torch.randint(0, 200, (n, 8), generator=g)
    b = torch.randint(0, 200, (n, 8), generator=g)
    labels = ((a[:, 0] % 2) * 2 + (b[:, 0] % 2)).long()
    return a, b, labels


def make_target():
    torch.manual_seed(0)
    a, b, y = _pairs(32, 1)
    criterion = nn.CrossEntropyLoss()
    return {
        "model": PairClassifier(),
        "batch": ((a, b), y),
        "loss_fn": lambda out, labels: criterion(out, labels),
        "metric_fn": lambda out, labels: (out.argmax(-1) == labels).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
    }
