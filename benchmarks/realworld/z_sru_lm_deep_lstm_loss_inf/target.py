"""Word LM with a deep stacked LSTM, wide uniform init and plain SGD without clipping."""

import torch
import torch.nn as nn

V, H = 40, 64


class DeepLSTMLM(nn.Module):
    def __init__(self, depth=6, init=1.0):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.rnn = nn.LSTM(H, H, num_layers=depth)
        self.out = nn.Linear(H, V)
        for p in self.parameters():
            nn.init.uniform_(p, -init, init)

    def forward(self, ids):  # (T, B)
        return self.out(self.rnn(self.emb(ids))[0]).reshape(-1, V)


def make_batch(T=35, B=8):
    g = torch.Generator().manual_seed(5)
    ids = torch.randint(0, V, (T + 1, B), generator=g)
    return ids[:-1], ids[1:].reshape(-1)


def make_target(depth=6):
    torch.manual_seed(0)
    return {"model": DeepLSTMLM(depth), "batch": make_batch(), "loss_fn": nn.CrossEntropyLoss(),
            "optimizer": lambda p: torch.optim.SGD(p, lr=20.0), "batch_axis": 1}
