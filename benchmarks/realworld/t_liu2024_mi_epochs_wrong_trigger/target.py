"""Motor-imagery epochs cut from a continuous recording at stimulus triggers; a small classifier on band power."""

import torch
from torch import nn

N_TRIALS, N_CH, FS, EPOCH = 40, 8, 32, 64


def _recording(seed=0):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, 2, (N_TRIALS,), generator=g)
    trial_len = 3 * EPOCH  # instruction, motor imagery, break
    sig = 0.5 * torch.randn(N_CH, N_TRIALS * trial_len, generator=g)
    triggers, values = [], []
    pattern = torch.stack([torch.linspace(1, 0, N_CH), torch.linspace(0, 1, N_CH)])  # left / right topography
    for i in range(N_TRIALS):
        start = i * trial_len
        for stage in range(3):
            triggers.append(start + stage * EPOCH)
            values.append(stage + 1)
        mi = start + EPOCH
        t = torch.arange(EPOCH) / FS
        osc = torch.sin(2 * torch.pi * 10 * t)
        sig[:, mi:mi + EPOCH] += 1.5 * pattern[labels[i]][:, None] * osc[None]
    return sig, torch.tensor(triggers), torch.tensor(values), labels


def make_epochs(sig, triggers, values, labels):
    onsets = triggers[:N_TRIALS]  # first 40 stimulus triggers, whatever stage they mark
    x = torch.stack([sig[:, o:o + EPOCH] for o in onsets])
    feats = torch.log(x.pow(2).mean(-1) + 1e-6)  # per-channel log power
    return feats, labels


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(N_CH, 16), nn.ReLU(), nn.Linear(16, 2))

    def forward(self, x):
        return self.fc(x)


def make_target():
    torch.manual_seed(0)
    X, y = make_epochs(*_recording(0))
    Xv, yv = make_epochs(*_recording(1))
    mu, sd = X.mean(0), X.std(0) + 1e-6
    X, Xv = (X - mu) / sd, (Xv - mu) / sd
    return {
        "model": Net(),
        "batch": (X, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "metric_fn": lambda out, t: (out.argmax(-1) == t).float().mean().item(),
        "train_data": (X, y),
        "val_data": (Xv, yv),
    }
