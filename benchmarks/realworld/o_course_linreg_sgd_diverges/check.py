"""Self-contained: 1-D linear regression, inputs ~ N(0, 10^2): SGD at lr=0.05 diverges, lr=1e-3 converges."""

import torch
from torch import nn


def _fit(lr, epochs=100):
    torch.manual_seed(1)
    X = torch.randn(100, 1) * 10
    y = 3 * X + 5 + 3 * torch.randn(100, 1)
    model = nn.Linear(1, 1)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for _ in range(epochs):
        loss = nn.functional.mse_loss(model(X), y)
        losses.append(loss.item())
        opt.zero_grad()
        loss.backward()
        opt.step()
    return losses


def _check() -> str:
    bad = _fit(0.05)
    ok = _fit(0.001)
    blew = next((i for i, v in enumerate(bad) if not (v < 1e30)), None)
    assert bad[5] > 10 * bad[0] and blew is not None, (bad[:6], blew)
    assert ok[-1] < 0.1 * ok[0], (ok[0], ok[-1])
    return (f"lr=0.05: loss {bad[0]:.1f} -> {bad[5]:.3g} after 5 epochs, inf/nan by epoch {blew}; "
            f"lr=0.001: {ok[0]:.1f} -> {ok[-1]:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
