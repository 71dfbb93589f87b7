"""Self-contained: the optuna-style objective loop with model.train() hoisted above the epoch loop."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _model(p):
    return nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Dropout(p), nn.Linear(64, 64), nn.ReLU(), nn.Dropout(p), nn.Linear(64, 4))


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 20, generator=g)
    w = torch.randn(20, 4, generator=g)
    return x, (x @ w).argmax(1)


def _objective(p, hoisted):
    torch.manual_seed(0)
    model = _model(p)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x, y = _data(256, 1)
    xv, yv = _data(128, 2)
    modes, per_epoch_train_loss = [], []
    if hoisted:
        model.train()
    for epoch in range(3):
        if not hoisted:
            model.train()
        losses = []
        for i in range(0, len(x), 32):
            modes.append(model.training)
            opt.zero_grad()
            loss = F.cross_entropy(model(x[i : i + 32]), y[i : i + 32])
            loss.backward()
            opt.step()
            losses.append(loss.item())
        per_epoch_train_loss.append(sum(losses) / len(losses))
        model.eval()
        with torch.no_grad():
            _ = (model(xv).argmax(1) == yv).float().mean().item()
    return modes, per_epoch_train_loss


def _check() -> str:
    modes, _ = _objective(0.5, hoisted=True)
    steps_per_epoch = len(modes) // 3
    later = modes[steps_per_epoch:]
    assert all(modes[:steps_per_epoch]) and not any(later), modes
    # the dropout rate the trial suggests stops mattering after epoch 1: outputs in training are deterministic
    torch.manual_seed(0)
    m = _model(0.5)
    m.eval()
    x, _ = _data(8, 3)
    same = torch.equal(m(x), m(x))
    assert same
    _, loss_bug = _objective(0.5, hoisted=True)
    _, loss_ok = _objective(0.5, hoisted=False)
    return (
        f"{len(later)} of {len(modes)} training steps (every step after epoch 1) ran with model.training=False; "
        f"epoch-3 train loss {loss_bug[2]:.3f} (dropout off) vs {loss_ok[2]:.3f} with model.train() each epoch"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
