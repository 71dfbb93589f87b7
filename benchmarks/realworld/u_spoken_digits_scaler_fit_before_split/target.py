"""Spoken-digit MLP on per-utterance MFCC statistics; the features were standardised before splitting."""

import numpy as np
import torch
from torch import nn


def _utterances(seed=0):
    rng = np.random.default_rng(seed)
    centres = rng.normal(0, 1.0, size=(10, 26))          # one centre per digit
    X, y, spk = [], [], []
    for s in range(15):
        offset = rng.normal(0, 2.0, size=26) + (3.0 if s >= 11 else 0.0)  # speaker / channel offset
        scale = rng.uniform(5, 40, size=26)                                # raw MFCC scale
        for d in range(10):
            for _ in range(6):
                X.append((centres[d] + offset + rng.normal(0, 0.6, size=26)) * scale)
                y.append(d)
                spk.append(s)
    return np.asarray(X, dtype=np.float32), np.asarray(y), np.asarray(spk)


def _standardise(X):
    mean, std = X.mean(0), X.std(0)
    return (X - mean) / std


def load_splits():
    X, y, spk = _utterances()
    X = _standardise(X)                       # scaler fitted on every utterance
    train = spk < 11                          # speakers 0-10 train, 11-14 test
    return (X[train], y[train], spk[train]), (X[~train], y[~train], spk[~train])


def make_target():
    torch.manual_seed(0)
    (xtr, ytr, gtr), (xte, yte, gte) = load_splits()
    xtr, xte = torch.from_numpy(xtr), torch.from_numpy(xte)
    ytr, yte = torch.from_numpy(ytr).long(), torch.from_numpy(yte).long()
    model = nn.Sequential(nn.Linear(26, 64), nn.ReLU(), nn.Linear(64, 10))
    return {
        "model": model,
        "batch": (xtr[:64], ytr[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (xtr, ytr),
        "val_data": (xte, yte),
        "groups": (gtr.tolist(), gte.tolist()),
        "metric_fn": lambda out, t: (out.argmax(-1) == t).float().mean().item(),
    }
