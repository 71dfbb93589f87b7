"""EEG window classifier (Alzheimer's vs. healthy control) with a subject-level train/val split.

Every subject contributes many 2-second windows; the label is the subject's diagnosis. Train and validation
subjects are disjoint (80/20 by subject).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CH, T = 4, 64


def make_subject(label, g, n_windows=16):
    t = torch.arange(T).float() / T
    # each person has a strong individual signature (electrode impedance, skull, alpha peak ...)
    freq = 4 + 8 * torch.rand(N_CH, 1, generator=g)
    phase = 6.28 * torch.rand(N_CH, 1, generator=g)
    offset = 1.5 * torch.randn(N_CH, 1, generator=g)
    amp = 0.5 + torch.rand(N_CH, 1, generator=g)
    windows = []
    for _ in range(n_windows):
        jitter = 6.28 * torch.rand(1, generator=g)
        sig = amp * torch.sin(6.28 * freq * t + phase + jitter) + offset
        # the disease effect is small: a bit of extra slow (delta) activity
        sig = sig + 0.25 * label * torch.sin(6.28 * 2 * t + jitter)
        sig = sig + 0.8 * torch.randn(N_CH, T, generator=g)
        windows.append(sig)
    return torch.stack(windows), torch.full((n_windows,), label, dtype=torch.long)


def make_split(n_subjects, seed):
    g = torch.Generator().manual_seed(seed)
    xs, ys, subj = [], [], []
    for s in range(n_subjects):
        x, y = make_subject(s % 2, g)
        xs.append(x)
        ys.append(y)
        subj += [seed * 1000 + s] * len(y)
    return torch.cat(xs), torch.cat(ys), torch.tensor(subj)


class EEGNetSmall(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(N_CH, 16, 7, padding=3), nn.ReLU(),
            nn.Conv1d(16, 16, 7, padding=3), nn.ReLU(),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(16 * T, 64), nn.ReLU(), nn.Linear(64, 2))

    def forward(self, x):
        return self.head(self.conv(x))


def accuracy(logits, y):
    return (logits.argmax(-1) == y).float().mean().item()


def make_target():
    torch.manual_seed(0)
    xtr, ytr, gtr = make_split(20, seed=1)
    xva, yva, gva = make_split(6, seed=2)
    return {
        "model": EEGNetSmall(),
        "batch": (xtr[:64], ytr[:64]),
        "loss_fn": lambda out, y: F.cross_entropy(out, y),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "metric_fn": accuracy,
        "train_data": (xtr, ytr),
        "val_data": (xva, yva),
        "groups": (gtr.tolist(), gva.tolist()),
    }
