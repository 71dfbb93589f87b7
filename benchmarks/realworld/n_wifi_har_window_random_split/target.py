"""CSI activity recognition: sliding windows (80% overlap) cut from each recording, then split at random."""

import torch
from torch import nn

N_ACT, REC_PER_ACT, LEN, CH, WIN, STRIDE = 6, 4, 300, 6, 50, 10


def recordings(seed=0):
    g = torch.Generator().manual_seed(seed)
    sig = 0.3 * torch.randn(N_ACT, CH, generator=g)  # weak activity signature
    recs, labels, rec_ids = [], [], []
    rid = 0
    for a in range(N_ACT):
        for _ in range(REC_PER_ACT):
            walk = torch.cumsum(0.3 * torch.randn(LEN, CH, generator=g), 0)  # session-specific drift
            recs.append(walk + sig[a] + 0.2 * torch.randn(LEN, CH, generator=g))
            labels.append(a)
            rec_ids.append(rid)
            rid += 1
    return recs, labels, rec_ids


def windows(seed=0):
    recs, labels, rec_ids = recordings(seed)
    xs, ys, gs, starts = [], [], [], []
    for r, y, rid in zip(recs, labels, rec_ids):
        for s in range(0, LEN - WIN + 1, STRIDE):
            xs.append(r[s:s + WIN].flatten())
            ys.append(y)
            gs.append(rid)
            starts.append(s)
    return torch.stack(xs), torch.tensor(ys), torch.tensor(gs), torch.tensor(starts)


def random_split(seed=0, frac=0.8):
    x, y, grp, st = windows(seed)
    perm = torch.randperm(len(y), generator=torch.Generator().manual_seed(1))
    k = int(frac * len(y))
    tr, va = perm[:k], perm[k:]
    return (x[tr], y[tr], grp[tr], st[tr]), (x[va], y[va], grp[va], st[va])


def model_fn():
    return nn.Sequential(nn.Linear(WIN * CH, 128), nn.ReLU(), nn.Linear(128, N_ACT))


def make_target():
    torch.manual_seed(0)
    (xtr, ytr, gtr, _), (xva, yva, gva, _) = random_split()
    return {
        "model": model_fn(),
        "batch": (xtr[:64], ytr[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (xtr, ytr),
        "val_data": (xva, yva),
        "groups": (gtr.tolist(), gva.tolist()),
        "metric_fn": lambda out, t: (out.argmax(-1) == t).float().mean().item(),
    }
