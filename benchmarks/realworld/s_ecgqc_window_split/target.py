"""ECG-window quality classifier. Windows are cut from 40 recordings (subjects); the quality label depends mostly on
the recording (electrode placement, subject), and each recording has its own signature in the features. The
validation set is a random 20% of all windows."""

import torch
from torch import nn

N_SUBJ, PER_SUBJ, D = 40, 30, 12


def make_data(seed=0):
    g = torch.Generator().manual_seed(seed)
    sig = torch.randn(N_SUBJ, D, generator=g) * 1.5  # per-recording signature
    subj_label = torch.randint(0, 2, (N_SUBJ,), generator=g)
    w = torch.randn(D, generator=g)
    xs, ys, gs = [], [], []
    for s in range(N_SUBJ):
        x = sig[s] + 0.5 * torch.randn(PER_SUBJ, D, generator=g)
        # weak window-level quality signal plus the recording's label
        weak = (x @ w > 0).long()
        flip = torch.rand(PER_SUBJ, generator=g) < 0.15
        y = torch.where(flip, weak, subj_label[s].expand(PER_SUBJ))
        xs.append(x), ys.append(y), gs.append(torch.full((PER_SUBJ,), s))
    return torch.cat(xs), torch.cat(ys), torch.cat(gs)


def random_window_split(x, y, grp, seed=0):
    perm = torch.randperm(len(x), generator=torch.Generator().manual_seed(seed))
    n_val = len(x) // 5
    va, tr = perm[:n_val], perm[n_val:]
    return (x[tr], y[tr], grp[tr]), (x[va], y[va], grp[va])


def make_model():
    return nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, 2))


def make_target():
    torch.manual_seed(0)
    x, y, grp = make_data()
    (xtr, ytr, gtr), (xva, yva, gva) = random_window_split(x, y, grp)
    return {
        "model": make_model(),
        "batch": (xtr[:64], ytr[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "train_data": (xtr, ytr),
        "val_data": (xva, yva),
        "groups": (gtr.tolist(), gva.tolist()),
    }
