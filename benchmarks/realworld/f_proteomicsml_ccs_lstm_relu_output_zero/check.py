"""An LSTM regressor whose output passes through a ReLU; with this (fixed) seed the pre-ReLU output starts negative
for every peptide, so the model predicts 0 everywhere and never gets a gradient. The same seed without the ReLU
trains."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class _CCS(nn.Module):
    def __init__(self, relu_out):
        super().__init__()
        self.emb = nn.Embedding(21, 16)
        self.lstm = nn.LSTM(16, 32, batch_first=True)
        self.out = nn.Sequential(nn.Linear(32, 1), nn.ReLU()) if relu_out else nn.Linear(32, 1)

    def forward(self, seq):
        h, _ = self.lstm(self.emb(seq))
        return self.out(h[:, -1]).squeeze(-1)


def _peptides(n, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, 21, (n, 12), generator=g)
    mass = torch.linspace(0.5, 1.5, 21)
    return ids, mass[ids].sum(1) / 4  # a positive CCS-like value around 3


def _train(relu_out):
    torch.manual_seed(64)
    model = _CCS(relu_out)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = _peptides(512, 1)
    for _ in range(4):
        for i in range(0, 512, 32):
            loss = F.mse_loss(model(x[i : i + 32]), y[i : i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
    vx, vy = _peptides(256, 2)
    with torch.no_grad():
        pred = model(vx)
    return pred, F.mse_loss(pred, vy).item()


def _check() -> str:
    pred, mse = _train(relu_out=True)
    assert (pred == 0).all(), pred[:5]
    pred_ok, mse_ok = _train(relu_out=False)
    assert mse_ok < 0.1 * mse, (mse, mse_ok)
    return f"with the output ReLU every validation prediction is 0.0 (MSE {mse:.2f}); without it MSE {mse_ok:.3f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
