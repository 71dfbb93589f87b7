"""Self-contained: a regression model trained normally; test predictions come from a shuffling loader but are paired
with the labels in their original order."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    w = torch.randn(8, generator=g)
    X = torch.randn(900, 8, generator=g)
    y = X @ w / 8 ** 0.5 + 0.3 * torch.randn(900, generator=g)
    y = (y - y.mean()) / y.std()
    Xtr, ytr, Xte, yte = X[:700], y[:700], X[700:], y[700:]
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(200):
        opt.zero_grad()
        nn.functional.mse_loss(model(Xtr).squeeze(-1), ytr).backward()
        opt.step()
    test_ds = DataLoader(TensorDataset(Xte, yte), batch_size=64, shuffle=True,
                         generator=torch.Generator().manual_seed(3))
    with torch.no_grad():
        preds = torch.cat([model(x).squeeze(-1) for x, _ in test_ds])
        true_mse = nn.functional.mse_loss(model(Xte).squeeze(-1), yte).item()
    reported = ((preds - yte) ** 2).mean().item()
    r = torch.corrcoef(torch.stack([preds, yte]))[0, 1].item()
    assert reported > 4 * true_mse and abs(r) < 0.2, (reported, true_mse, r)
    return (f"test MSE as reported {reported:.2f} (r={r:+.2f}) vs {true_mse:.2f} when predictions stay paired "
            f"with their own rows")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
