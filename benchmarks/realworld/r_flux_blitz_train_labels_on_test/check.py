"""Self-contained: train a small classifier, then score the test images against test vs. train labels."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _run() -> str:
    g = torch.Generator().manual_seed(0)
    centers = torch.randn(10, 20, generator=g) * 2
    train_y = torch.randint(0, 10, (600,), generator=g)
    test_y = torch.randint(0, 10, (300,), generator=g)
    train_x = centers[train_y] + torch.randn(600, 20, generator=g)
    test_x = centers[test_y] + torch.randn(300, 20, generator=g)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(100):
        opt.zero_grad()
        F.cross_entropy(model(train_x), train_y).backward()
        opt.step()
    with torch.no_grad():
        preds = model(test_x).argmax(1)
    right = (preds == test_y).float().mean().item()
    wrong = (preds == train_y[: len(test_x)]).float().mean().item()
    assert right > 0.8 and wrong < 0.2, (right, wrong)
    return f"test accuracy scored against the train labels: {wrong:.3f} (chance 0.1); against the test labels: {right:.3f}"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
