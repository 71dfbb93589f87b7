"""Frame-level speech-unit classifier: a strided conv front end over spectrogram-like frames, then a single
small GRU layer and a linear output per frame. Labels come from a fixed random teacher over a window of
frames, a task with a lot of structure to learn."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEAT, N_CLASSES = 16, 8


class SpeechNet(nn.Module):
    def __init__(self, hidden=4, layers=1):
        super().__init__()
        self.front = nn.Conv1d(N_FEAT, 16, kernel_size=3, padding=1)
        self.rnn = nn.GRU(16, hidden, num_layers=layers, batch_first=True)
        self.out = nn.Linear(hidden, N_CLASSES)

    def forward(self, x):  # x: (B, T, F)
        h = F.relu(self.front(x.transpose(1, 2))).transpose(1, 2)
        h, _ = self.rnn(h)
        return self.out(h)  # (B, T, C)


def _utterances(n, seed, T=20):
    g = torch.Generator().manual_seed(0)
    w1 = torch.randn(3 * N_FEAT, 64, generator=g)
    w2 = torch.randn(64, N_CLASSES, generator=g)
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, T, N_FEAT, generator=g)
    window = torch.cat([F.pad(x, (0, 0, 2, 0))[:, :-2], F.pad(x, (0, 0, 1, 0))[:, :-1], x], dim=-1)
    y = (torch.tanh(window @ w1 / 7.0) @ w2).argmax(-1)  # (n, T)
    return x, y


def loss_fn(out, y):
    return F.cross_entropy(out.reshape(-1, N_CLASSES), y.reshape(-1))


def make_target():
    torch.manual_seed(0)
    return {
        "model": SpeechNet(),
        "batch": _utterances(16, 1),
        "loss_fn": loss_fn,
        "metric_fn": lambda out, y: (out.argmax(-1) == y).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": _utterances(512, 2),
        "val_data": _utterances(256, 3),
    }
