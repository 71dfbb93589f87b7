"""A word-language-model-style LSTM: sequence-first (T, B) tokens, an explicit hidden state passed in
and returned, so the target describes it with call_model and batch_axis=1."""

import torch
from torch import nn
from torch.nn import functional as F

V, T, B = 50, 12, 4


class RNNModel(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.drop = nn.Dropout(0.2)
        self.encoder = nn.Embedding(V, 32)
        self.rnn = nn.LSTM(32, 32, 2, dropout=0.2)
        self.decoder = nn.Linear(32, V)

    def init_hidden(self, bsz: int) -> tuple[torch.Tensor, torch.Tensor]:
        w = next(self.parameters())
        return w.new_zeros(2, bsz, 32), w.new_zeros(2, bsz, 32)

    def forward(self, x, hidden):
        out, hidden = self.rnn(self.drop(self.encoder(x)), hidden)
        return self.decoder(self.drop(out)), hidden


def call_model(model, x):
    return model(x, model.init_hidden(x.shape[1]))[0]


def make_target():
    torch.manual_seed(0)
    data = torch.randint(0, V, (T + 1, B))
    return {
        "model": RNNModel(),
        "batch": (data[:-1], data[1:]),
        "call_model": call_model,
        "batch_axis": 1,
        "causal": True,
        "sequence_dim": 0,
        "loss_fn": lambda out, y: F.cross_entropy(out.reshape(-1, V), y.reshape(-1)),
        "optimizer": lambda p: torch.optim.SGD(p, lr=1.0),
    }
