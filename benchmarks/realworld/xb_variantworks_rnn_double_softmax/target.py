"""Consensus caller: a bidirectional GRU over pileup columns predicting one base class per column.

Classes are gap, A, C, G, T. Training uses CrossEntropyLoss over every column.
"""
import torch
import torch.nn as nn

N_FEAT, N_CLS, T = 10, 5, 16


class ConsensusRNN(nn.Module):
    def __init__(self, gru_size=16, gru_layers=1):
        super().__init__()
        self.gru = nn.GRU(N_FEAT, gru_size, num_layers=gru_layers, batch_first=True, bidirectional=True)
        self.classification_layer = nn.Linear(2 * gru_size, N_CLS)
        self.softmax = nn.Softmax(dim=2)

    def forward(self, encoding):
        encoding, _ = self.gru(encoding)
        encoding = self.classification_layer(encoding)
        return self.softmax(encoding)


def make_pileups(n=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    truth = torch.randint(0, N_CLS, (n, T), generator=g)
    counts = torch.zeros(n, T, N_FEAT)
    counts[..., :N_CLS] = nn.functional.one_hot(truth, N_CLS).float() * 8
    counts += torch.rand(n, T, N_FEAT, generator=g) * 2          # read errors / other strand
    return counts / 10.0, truth


def ce_over_columns(out, y):
    return nn.functional.cross_entropy(out.reshape(-1, N_CLS), y.reshape(-1))


def make_target():
    torch.manual_seed(0)
    x, y = make_pileups()
    return {
        "model": ConsensusRNN(),
        "batch": (x, y),
        "loss_fn": ce_over_columns,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "metric_fn": lambda out, y: (out.argmax(-1) == y).float().mean().item(),
    }
