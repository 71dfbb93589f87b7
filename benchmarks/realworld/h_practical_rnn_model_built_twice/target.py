"""Character-level RNN classifier; the script builds the model once near the class, then again before training."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CHARS, N_CLASSES, SEQ = 12, 6, 8


class CharRNN(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.rnn = nn.RNN(N_CHARS, hidden, batch_first=True)
        self.out = nn.Linear(hidden, N_CLASSES)

    def forward(self, x):
        h, _ = self.rnn(x)
        return self.out(h[:, -1])


def _names(n, seed):
    g = torch.Generator().manual_seed(seed)
    idx = torch.randint(0, N_CHARS, (n, SEQ), generator=g)
    y = idx[:, -1] % N_CLASSES  # the class is written in the last character
    return F.one_hot(idx, N_CHARS).float(), y


torch.manual_seed(0)
rnn = CharRNN()  # first instance, right after the class
optimizer = torch.optim.SGD(rnn.parameters(), lr=0.005)


def make_target():
    global rnn
    torch.manual_seed(1)
    rnn = CharRNN()  # built again before the training loop
    x, y = _names(16, 2)
    return {
        "model": rnn,
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: optimizer,
        "train_data": _names(512, 3),
        "val_data": _names(256, 4),
    }
