"""Self-contained: a small classifier trains fine, but accuracy = correct / len(loader) comes out far above 1."""

import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def _check() -> str:
    torch.manual_seed(0)
    n_cls, d = 4, 10
    centers = torch.randn(n_cls, d) * 3
    def data(n):
        y = torch.randint(0, n_cls, (n,))
        return centers[y] + torch.randn(n, d), y
    xtr, ytr = data(1024)
    xte, yte = data(500)
    model = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, n_cls))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    train_loader = DataLoader(TensorDataset(xtr, ytr), batch_size=16, shuffle=True)
    test_loader = DataLoader(TensorDataset(xte, yte), batch_size=16)
    for x, y in train_loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in test_loader:
            correct += torch.sum(model(x).argmax(1) == y).item()
    logged = correct / len(test_loader)
    true_acc = correct / len(test_loader.dataset)
    assert logged > 1.0 and 0.8 < true_acc <= 1.0, (logged, true_acc)
    return f"logged 'accuracy' {logged:.2f} (correct / number of batches); true test accuracy {true_acc:.3f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
