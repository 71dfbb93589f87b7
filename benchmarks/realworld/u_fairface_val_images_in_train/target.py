"""Face-attribute classifier on embeddings; the validation split shares many images with the training split."""
import torch
from torch import nn

D, C = 32, 9


def _make_split():
    g = torch.Generator().manual_seed(0)
    n_train, n_val_fresh, n_val_dup = 600, 150, 150
    proto = torch.randn(C, D, generator=g) * 0.3
    def draw(n):
        y = torch.randint(0, C, (n,), generator=g)
        x = proto[y] + torch.randn(n, D, generator=g)     # weak signal: hard task
        return x, y
    xtr, ytr = draw(n_train)
    xva_new, yva_new = draw(n_val_fresh)
    dup = torch.randperm(n_train, generator=g)[:n_val_dup]
    # the same photos ended up in both splits (identical pixels up to re-encoding noise)
    xva = torch.cat([xva_new, xtr[dup] + 0.01 * torch.randn(n_val_dup, D, generator=g)])
    yva = torch.cat([yva_new, ytr[dup]])
    train_ids = torch.arange(n_train)
    val_ids = torch.cat([torch.arange(n_train, n_train + n_val_fresh), dup])   # image ids (file hash)
    return (xtr, ytr), (xva, yva), (train_ids.tolist(), val_ids.tolist())


def make_target():
    torch.manual_seed(0)
    train, val, groups = _make_split()
    model = nn.Sequential(nn.Linear(D, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, C))
    return {
        "model": model,
        "batch": (train[0][:64], train[1][:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "metric_fn": lambda out, y: (out.argmax(-1) == y).float().mean().item(),
        "train_data": train,
        "val_data": val,
        "groups": groups,
    }
