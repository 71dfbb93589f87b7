"""Self-contained: MSE between (B, 1) predictions and (B,) targets broadcasts to (B, B); the model learns the mean."""

import warnings

import torch
from torch import nn


def _train(flatten_target):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(256, 16, generator=g)
    w = torch.randn(16, generator=g)
    y = torch.sigmoid(x @ w / 2)  # continuous score in (0, 1)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(6):
            for i in range(0, 256, 8):
                target = y[i:i + 8].view(-1) if flatten_target else y[i:i + 8].view(-1, 1)
                opt.zero_grad()
                nn.functional.mse_loss(model(x[i:i + 8]), target).backward()
                opt.step()
    with torch.no_grad():
        pred = model(x).view(-1)
    r = torch.corrcoef(torch.stack([pred, y]))[0, 1].item()
    return pred.std().item(), y.std().item(), r


def _check() -> str:
    bad_std, y_std, bad_r = _train(flatten_target=True)
    _, _, ok_r = _train(flatten_target=False)
    assert bad_std < 0.35 * y_std, (bad_std, y_std)
    assert ok_r > 0.8 and ok_r - bad_r > 0.3, (ok_r, bad_r)
    return (
        f"(B,1) predictions vs (B,) targets: prediction std {bad_std:.3f} vs target std {y_std:.3f}, r={bad_r:.2f}; "
        f"shapes aligned: r={ok_r:.2f}"
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
