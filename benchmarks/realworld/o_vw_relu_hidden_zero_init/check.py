"""Self-contained: a ReLU MLP whose hidden layer starts at exactly zero never leaves it; only the output bias learns."""

import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self, n_in, n_hidden, zero_init):
        super().__init__()
        self.hidden = nn.Linear(n_in, n_hidden)
        self.out = nn.Linear(n_hidden, 1)
        if zero_init:
            nn.init.zeros_(self.hidden.weight)
            nn.init.zeros_(self.hidden.bias)
            nn.init.zeros_(self.out.weight)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(x)))


def _run(zero_init):
    torch.manual_seed(0)
    X = torch.randn(256, 6)
    y = (torch.sin(X[:, :1] * 2) + X[:, 1:2] * X[:, 2:3])
    y = (y - y.mean()) / y.std()
    model = MLP(6, 32, zero_init)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    for _ in range(200):
        loss = nn.functional.mse_loss(model(X), y)
        opt.zero_grad()
        loss.backward()
        losses.append(loss.item())
        opt.step()
    with torch.no_grad():
        active = (model.hidden(X) > 0).float().mean().item()
        spread = model(X).std().item()
    return losses, active, spread, model.hidden.weight.abs().max().item()


def _check() -> str:
    bad, active, spread, wmax = _run(True)
    ok, _, _, _ = _run(False)
    assert active == 0.0 and wmax == 0.0 and spread < 1e-6 and bad[-1] > 0.95, (active, wmax, spread, bad[-1])
    assert ok[-1] < 0.5 * bad[-1], ok[-1]
    return (f"zero-initialised ReLU layer: {active:.0%} of hidden units ever active, hidden weights still {wmax}, "
            f"MSE {bad[0]:.2f} -> {bad[-1]:.2f} with constant predictions; default init: MSE -> {ok[-1]:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
