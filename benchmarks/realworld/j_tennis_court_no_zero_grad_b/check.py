import torch
import torch.nn as nn


def _data(seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(512, 16, generator=g)
    w = torch.randn(16, 8, generator=g)
    return x, torch.sigmoid(x @ w)


def _train(clear):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = _data(1)
    losses = []
    for _ in range(3):
        for i in range(0, len(x), 16):
            if clear:
                opt.zero_grad()
            loss = nn.functional.mse_loss(torch.sigmoid(model(x[i : i + 16])), y[i : i + 16])
            loss.backward()
            opt.step()
            losses.append(loss.item())
    return losses


def _check() -> str:
    good, bad = _train(True), _train(False)
    first, end_good, end_bad = sum(bad[:5]) / 5, sum(good[-10:]) / 10, sum(bad[-10:]) / 10
    assert end_good < 0.5 * first, (first, end_good)
    assert end_bad > 3 * end_good, (end_good, end_bad)
    return f"heatmap-style regression: final loss {end_bad:.4f} without zero_grad vs {end_good:.4f} with it (start {first:.4f})"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
