import torch
from torch import nn


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    centers = torch.randn(10, 32, generator=g) * 0.35
    def data(n):
        y = torch.randint(0, 10, (n,), generator=g)
        return centers[y] + torch.randn(n, 32, generator=g), y
    xtr, ytr = data(2000)
    xte, yte = data(1000)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.005)
    lf = nn.CrossEntropyLoss()
    acc, loss_at = {}, {}
    for epoch in range(1, 151):
        for i in range(0, 2000, 100):
            opt.zero_grad()
            loss = lf(model(xtr[i:i + 100]), ytr[i:i + 100])
            loss.backward()
            opt.step()
        if epoch in (25, 75, 150):
            with torch.no_grad():
                acc[epoch] = (model(xte).argmax(1) == yte).float().mean().item()
                loss_at[epoch] = lf(model(xtr), ytr).item()
    assert acc[25] < acc[75] < acc[150] and acc[150] - acc[75] > 0.015, acc
    assert loss_at[75] - loss_at[150] > 0.05, loss_at
    return (f"test acc at 25/75/150 epochs: {acc[25]:.3f}/{acc[75]:.3f}/{acc[150]:.3f}; "
            f"train loss still falling {loss_at[75]:.3f} -> {loss_at[150]:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

