"""Case-outcome prediction: one example per prefix of each case, shuffled at prefix level before the 80/20 split."""

import torch
from torch import nn

N_CASES, N_ACT, T = 60, 8, 6


def make_prefixes(seed=0):
    g = torch.Generator().manual_seed(seed)
    xs, ys, cases = [], [], []
    for c in range(N_CASES):
        trace = torch.randint(0, N_ACT, (T + 1,), generator=g)  # case-specific, essentially random sequence
        for k in range(1, T + 1):
            pref = torch.zeros(T, dtype=torch.long)
            pref[-k:] = trace[:k] + 1  # left-padded with 0
            xs.append(pref)
            ys.append(int(trace[T]))  # outcome: the final activity of the case
            cases.append(c)
    return torch.stack(xs), torch.tensor(ys), torch.tensor(cases)


def split(x, y, cases, seed=0):
    perm = torch.randperm(len(y), generator=torch.Generator().manual_seed(seed))  # shuffle prefixes, then split
    cut = int(0.8 * len(y))
    tr, va = perm[:cut], perm[cut:]
    return (x[tr], y[tr], cases[tr]), (x[va], y[va], cases[va])


class NextAct(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(N_ACT + 1, 16)
        self.rnn = nn.LSTM(16, 32, batch_first=True)
        self.out = nn.Linear(32, N_ACT)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h[:, -1])


def make_target():
    torch.manual_seed(0)
    x, y, cases = make_prefixes()
    (xt, yt, ct), (xv, yv, cv) = split(x, y, cases)
    return {
        "model": NextAct(),
        "batch": (xt[:64], yt[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "train_data": (xt, yt),
        "val_data": (xv, yv),
        "groups": (ct.tolist(), cv.tolist()),
        "metric_fn": lambda out, t: (out.argmax(-1) == t).float().mean().item(),
    }
