import math

import torch
import torch.nn as nn


def _model_eval(model, X, Y, batch_size, off_by_one):
    model.eval()
    accuracy = 0.0
    with torch.no_grad():
        nb_batches = int(math.ceil(float(len(X)) / batch_size))
        for batch in range(nb_batches):
            start = batch * batch_size
            end = min(len(X), start + batch_size)
            cur = end - start + (1 if off_by_one else 0)
            acc = (model(X[start:end]).argmax(1) == Y[start:end]).float().mean().item()
            accuracy += cur * acc
    return accuracy / len(X)


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 10, (n,), generator=g)
    protos = torch.randn(10, 20, generator=torch.Generator().manual_seed(5)) * 3
    return protos[y] + 0.5 * torch.randn(n, 20, generator=g), y


def _check() -> str:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = _data(2000, 1)
    for _ in range(5):
        model.train()
        for i in range(0, len(x), 100):
            opt.zero_grad()
            nn.functional.cross_entropy(model(x[i : i + 100]), y[i : i + 100]).backward()
            opt.step()
    xt, yt = _data(3000, 2)
    buggy = _model_eval(model, xt, yt, 128, True)
    right = _model_eval(model, xt, yt, 128, False)
    assert buggy > 1.0 >= right > 0.98, (buggy, right)
    return f"reported test accuracy {buggy:.4f} (> 1) while the true accuracy is {right:.4f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
