"""Self-contained: per-epoch validation loss is logged as the mean of a list that is never cleared between epochs."""

import torch
from torch import nn


class Module(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 128), nn.Tanh(), nn.Linear(128, 8))
        self.validation_losses = []

    def validation_step(self, x, y):
        with torch.no_grad():
            loss = nn.functional.mse_loss(self.net(x), y)
        self.validation_losses.append(loss)
        return loss

    def on_validation_epoch_end(self, clear):
        logged = torch.stack(self.validation_losses).mean().item()
        if clear:
            self.validation_losses.clear()
        return logged


LR = 3e-3
EPOCHS = 30


def _run(clear):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    w = torch.randn(8, 8, generator=g) / 8 ** 0.5
    xtr = torch.randn(24, 8, generator=g)
    ytr = torch.tanh(xtr @ w) + 0.5 * torch.randn(24, 8, generator=g)   # few, noisy "image" pairs
    xva = torch.randn(256, 8, generator=g)
    yva = torch.tanh(xva @ w) + 0.5 * torch.randn(256, 8, generator=g)
    m = Module()
    opt = torch.optim.Adam(m.net.parameters(), lr=LR)
    logged, per_epoch = [], []
    for epoch in range(EPOCHS):
        for i in range(0, 24, 8):
            loss = nn.functional.mse_loss(m.net(xtr[i:i + 8]), ytr[i:i + 8])
            opt.zero_grad()
            loss.backward()
            opt.step()
        before = len(m.validation_losses)
        for i in range(0, 256, 64):
            m.validation_step(xva[i:i + 64], yva[i:i + 64])
        per_epoch.append(torch.stack(m.validation_losses[before:]).mean().item())
        logged.append(m.on_validation_epoch_end(clear))
    return logged, per_epoch


def _check() -> str:
    logged, true = _run(clear=False)
    best_true = min(range(len(true)), key=true.__getitem__)
    best_logged = min(range(len(logged)), key=logged.__getitem__)
    assert true[-1] > 1.1 * true[best_true] and best_true < 20, (best_true, true[best_true], true[-1])
    assert best_logged >= best_true + 5 and true[best_logged] > 1.03 * true[best_true], (best_logged, best_true)
    return (f"true val loss best at epoch {best_true} ({true[best_true]:.3f}) then rises to {true[-1]:.3f}; logged "
            f"(never cleared) val loss best at epoch {best_logged} ({logged[best_logged]:.3f}), when the true loss is already {true[best_logged]:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
