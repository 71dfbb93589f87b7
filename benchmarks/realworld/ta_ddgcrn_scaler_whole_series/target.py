"""Traffic-flow forecaster (DDGCRN-like pipeline, tiny): 12 past steps of N sensors -> next step.

The data pipeline z-scores the raw series and then cuts it 70/10/20 in time into train/val/test windows.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_SENSORS = 8
LAG = 12


class StandardScaler:
    def __init__(self, mean, std):
        self.mean, self.std = mean, std

    def transform(self, x):
        return (x - self.mean) / self.std

    def inverse_transform(self, x):
        return x * self.std + self.mean


def synth_series(T=600, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(T, dtype=torch.float32)
    daily = 200 + 80 * torch.sin(2 * torch.pi * t / 48).unsqueeze(1)
    trend = (t / T * 120).unsqueeze(1)                      # demand grows over the months
    return daily + trend + 15 * torch.randn(T, N_SENSORS, generator=g)


def load_splits(raw, val_ratio=0.1, test_ratio=0.2):
    """Normalise, then split by time, then window."""
    scaler = StandardScaler(raw.mean(), raw.std())
    data = scaler.transform(raw)
    T = data.shape[0]
    n_test, n_val = int(T * test_ratio), int(T * val_ratio)
    train = data[: T - n_val - n_test]
    val = data[T - n_val - n_test : T - n_test]
    test = data[T - n_test :]

    def windows(seg):
        xs = torch.stack([seg[i : i + LAG] for i in range(seg.shape[0] - LAG)])
        ys = torch.stack([seg[i + LAG] for i in range(seg.shape[0] - LAG)])
        return xs, ys

    return windows(train), windows(val), windows(test), scaler


class Forecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.gru = nn.GRU(N_SENSORS, hidden, batch_first=True)
        self.head = nn.Linear(hidden, N_SENSORS)

    def forward(self, x):
        out, _ = self.gru(x)
        return self.head(out[:, -1])


def make_target():
    torch.manual_seed(0)
    (xtr, ytr), (xva, yva), _, _ = load_splits(synth_series())
    return {
        "model": Forecaster(),
        "batch": (xtr[:32], ytr[:32]),
        "loss_fn": lambda out, y: F.l1_loss(out, y),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "train_data": (xtr, ytr),
        "val_data": (xva, yva),
    }
