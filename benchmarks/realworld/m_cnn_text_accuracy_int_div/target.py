"""Kim-style CNN text classifier; the accuracy helper uses an integer count divided with floor division."""

import torch
from torch import nn

VOCAB, EMB, SEQ = 200, 16, 20


class KimCNN(nn.Module):
    def __init__(self, n_classes=2):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB)
        self.convs = nn.ModuleList([nn.Conv1d(EMB, 12, k) for k in (3, 4, 5)])
        self.dropout = nn.Dropout(0.5)
        self.fc = nn.Linear(36, n_classes)

    def forward(self, ids):
        x = self.embed(ids).transpose(1, 2)
        x = torch.cat([torch.relu(c(x)).max(dim=2).values for c in self.convs], dim=1)
        return self.fc(self.dropout(x))


def accuracy(logits, target):
    corrects = (logits.argmax(1) == target).sum().item()  # an int
    return corrects // target.size(0) * 100.0  # percent


def make_data(n=640, seed=0):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(2, VOCAB, (n, SEQ), generator=g)
    y = torch.randint(0, 2, (n,), generator=g)
    # sentiment words: class 1 sentences contain tokens 2..11, class 0 tokens 12..21
    pos = torch.randint(0, SEQ, (n, 6), generator=g)
    words = torch.randint(0, 10, (n, 6), generator=g) + 2 + 10 * (1 - y)[:, None]
    ids.scatter_(1, pos, words)
    return ids, y


def make_target():
    torch.manual_seed(0)
    ids, y = make_data()
    return {
        "model": KimCNN(),
        "batch": (ids[:64], y[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "metric_fn": accuracy,
        "train_data": (ids[:512], y[:512]),
        "val_data": (ids[512:], y[512:]),
    }
