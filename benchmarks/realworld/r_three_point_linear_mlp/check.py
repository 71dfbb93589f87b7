"""Self-contained: the asker's network (Dense(10) without activation -> Dense(1)) vs the same with tanh."""

import torch
import torch.nn as nn


def _fit(act):
    torch.manual_seed(0)
    x = torch.tensor([[-1.0], [0.0], [1.0]])
    y = torch.tensor([[-0.2445248], [0.1232554], [0.1713998]])
    layers = [nn.Linear(1, 10)] + ([act] if act is not None else []) + [nn.Linear(10, 1)]
    model = nn.Sequential(*layers)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(1500):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
    return loss.item()


def _run() -> str:
    linear = _fit(None)
    # least-squares line through the three points: the best any affine model can do
    x = torch.tensor([-1.0, 0.0, 1.0])
    y = torch.tensor([-0.2445248, 0.1232554, 0.1713998])
    a = torch.stack([x, torch.ones(3)], 1)
    coef = torch.linalg.lstsq(a, y[:, None]).solution
    floor = ((a @ coef).squeeze() - y).pow(2).mean().item()
    nonlinear = _fit(nn.Tanh())
    assert abs(linear - floor) < 1e-4 and floor > 5e-3 and nonlinear < 1e-4, (linear, floor, nonlinear)
    return f"no activation: training MSE stops at {linear:.4f} (= best straight line {floor:.4f}); with tanh: {nonlinear:.1e}"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
