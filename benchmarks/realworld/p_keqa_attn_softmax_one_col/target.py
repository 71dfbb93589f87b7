"""Question encoder with attention pooling over LSTM states, predicting a predicate embedding."""
import torch
import torch.nn.functional as F
from torch import nn


class AttnEncoder(nn.Module):
    def __init__(self, vocab=200, d=32, out=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.rnn = nn.LSTM(d, d)  # sequence-first
        self.attn = nn.Linear(2 * d, 1)
        self.head = nn.Linear(d, out)
        self.last_weights = None

    def forward(self, ids):  # ids: (seq, batch)
        x = self.emb(ids)
        outputs, _ = self.rnn(x)
        T, B, D = outputs.shape
        flat = torch.cat((x, outputs), 2).view(T * B, 2 * D)
        w = F.softmax(self.attn(flat), dim=1)  # scores are (T*B, 1)
        self.last_weights = w.view(T, B)
        pooled = (w.view(T, B, 1) * outputs).sum(0)
        return self.head(pooled)


def make_target():
    torch.manual_seed(0)
    ids = torch.randint(0, 200, (12, 16))
    target = torch.randn(16, 16)
    return {
        "model": AttnEncoder(),
        "batch": (ids, target),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "batch_axis": 1,
    }
