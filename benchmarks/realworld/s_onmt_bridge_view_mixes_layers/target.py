"""Encoder with a 'bridge' that flattens (layers, batch, hidden) final states with a plain view."""
import torch
from torch import nn


class BridgedEncoder(nn.Module):
    def __init__(self, vocab=30, hidden=16, layers=2, n_cls=4):
        super().__init__()
        self.layers, self.hidden = layers, hidden
        self.emb = nn.Embedding(vocab, hidden)
        self.rnn = nn.GRU(hidden, hidden, num_layers=layers)
        self.bridge = nn.Linear(layers * hidden, layers * hidden)
        self.head = nn.Linear(layers * hidden, n_cls)

    def forward(self, src):  # src: (T, B) token ids, sequence-first
        _, h = self.rnn(self.emb(src))  # h: (layers, B, hidden)
        size = h.size()
        flat = h.view(-1, self.layers * self.hidden)  # rows mix batch elements
        out = torch.relu(self.bridge(flat)).view(size)
        # summarise per example: concatenate the layers of example b
        per_ex = out.permute(1, 0, 2).reshape(size[1], -1)
        return self.head(per_ex)


def make_target():
    torch.manual_seed(0)
    src = torch.randint(0, 30, (7, 8))
    y = src[0] % 4
    return {
        "model": BridgedEncoder(),
        "batch": (src, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "batch_axis": 1,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
    }
