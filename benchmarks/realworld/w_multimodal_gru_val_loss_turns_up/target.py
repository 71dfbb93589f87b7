"""Bimodal GRU sentiment classifier (text-like and audio-like feature sequences) on a small noisy dataset."""
import torch
import torch.nn as nn
import torch.nn.functional as F

T, D_TEXT, D_AUDIO, N_CLS = 10, 16, 8, 3


class BimodalGRU(nn.Module):
    def __init__(self, hidden=48):
        super().__init__()
        self.gt = nn.GRU(D_TEXT, hidden, batch_first=True)
        self.ga = nn.GRU(D_AUDIO, hidden, batch_first=True)
        self.fc = nn.Sequential(nn.Linear(2 * hidden, hidden), nn.ReLU(), nn.Linear(hidden, N_CLS))

    def forward(self, text, audio):
        ht = self.gt(text)[1][-1]
        ha = self.ga(audio)[1][-1]
        return F.log_softmax(self.fc(torch.cat([ht, ha], -1)), -1)


def data(n, seed):
    g = torch.Generator().manual_seed(seed)
    wt = torch.randn(D_TEXT, N_CLS, generator=torch.Generator().manual_seed(99))
    text = torch.randn(n, T, D_TEXT, generator=g)
    audio = torch.randn(n, T, D_AUDIO, generator=g)
    logits = text[:, -3:].mean(1) @ wt * 2.0
    y = logits.argmax(-1)
    flip = torch.rand(n, generator=g) < 0.25  # noisy annotations
    y = torch.where(flip, torch.randint(0, N_CLS, (n,), generator=g), y)
    return (text, audio), y


def make_target():
    torch.manual_seed(0)
    (xt, xa), y = data(120, 0)
    (vt, va), vy = data(300, 1)
    weight = torch.ones(N_CLS)
    return {
        "model": BimodalGRU(),
        "batch": ((xt[:32], xa[:32]), y[:32]),
        "loss_fn": nn.NLLLoss(weight=weight),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3, weight_decay=1e-5),
        "train_data": [((xt[i:i + 30], xa[i:i + 30]), y[i:i + 30]) for i in range(0, 120, 30)],
        "val_data": [((vt[i:i + 100], va[i:i + 100]), vy[i:i + 100]) for i in range(0, 300, 100)],
        "metric_fn": lambda out, t: (out.argmax(-1) == t).float().mean().item(),
    }
