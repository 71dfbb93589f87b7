"""Byte-level recurrent classifier with a state kept on the module across calls (CoLA-style acceptability)."""
import torch
from torch import nn

D = 32


class StatefulByteModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Embedding(256, D)
        self.cell = nn.Linear(2 * D, D)
        self.head = nn.Linear(D, 2)
        self.register_buffer("states", torch.zeros(1, D), persistent=False)

    def reset(self):
        self.states = torch.zeros_like(self.states)

    def forward(self, byte_ids):                      # (B, T) bytes of one or more sentences
        trace = self.states.expand(byte_ids.shape[0], -1)
        for t in range(byte_ids.shape[1]):
            trace = 0.9 * trace + 0.1 * self.encoder(byte_ids[:, t])   # decaying byte trace
        h = torch.tanh(self.cell(torch.cat([trace, trace.abs()], -1)))
        # keep the state for the next call (continuing stream)
        self.states = trace.detach().mean(0, keepdim=True)
        return self.head(h)


def _sentences(n, g):
    ids = torch.randint(97, 123, (n, 20), generator=g)
    y = (ids[:, :10].float().mean(1) > ids[:, 10:].float().mean(1)).long()
    return ids, y


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    xtr, ytr = _sentences(256, g)
    xva, yva = _sentences(64, g)
    return {"model": StatefulByteModel(), "batch": (xtr[:16], ytr[:16]), "loss_fn": nn.CrossEntropyLoss(),
            "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
            "train_data": (xtr, ytr), "val_data": (xva, yva)}
