"""Self-contained: a sequence model on noisy, weakly predictable return series; valid loss bottoms out, then rises."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_STOCKS, LOOKBACK, FEAT = 64, 6, 6


def _market(seed, n_days):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(FEAT, generator=torch.Generator().manual_seed(7)) * 0.3
    x = torch.randn(n_days, N_STOCKS, LOOKBACK, FEAT, generator=g)
    signal = (x[:, :, -1] @ w)
    y = signal + 2.0 * torch.randn(n_days, N_STOCKS, generator=g)  # low signal-to-noise, like daily returns
    return x, y


class SeqModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(FEAT, 64)
        self.gru = nn.GRU(64, 64, batch_first=True)
        self.head = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x):  # (S, L, F)
        h, _ = self.gru(F.relu(self.inp(x)))
        return self.head(h[:, -1]).squeeze(-1)


def _check() -> str:
    torch.manual_seed(0)
    xtr, ytr = _market(0, 12)
    xva, yva = _market(1, 20)
    model = SeqModel()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    tr_loss, va_loss = [], []
    for _ in range(25):
        for d in range(len(xtr)):
            opt.zero_grad()
            F.mse_loss(model(xtr[d]), ytr[d]).backward()
            opt.step()
        with torch.no_grad():
            tr_loss.append(sum(F.mse_loss(model(xtr[d]), ytr[d]).item() for d in range(len(xtr))) / len(xtr))
            va_loss.append(sum(F.mse_loss(model(xva[d]), yva[d]).item() for d in range(len(xva))) / len(xva))
    best = min(range(len(va_loss)), key=va_loss.__getitem__)
    assert 1 <= best <= 15, best
    assert va_loss[-1] > 1.1 * va_loss[best], (va_loss[best], va_loss[-1])
    assert tr_loss[-1] < 0.7 * tr_loss[best], (tr_loss[best], tr_loss[-1])
    return (f"valid loss {va_loss[0]:.3f} -> min {va_loss[best]:.3f} at epoch {best + 1} -> {va_loss[-1]:.3f} at epoch 25; "
            f"train loss {tr_loss[best]:.3f} -> {tr_loss[-1]:.3f} over the same span")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
