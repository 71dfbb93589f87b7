"""Self-contained: a manual-optimization G/D loop whose ExponentialLR schedulers are built but never stepped."""

import torch
from torch import nn


def _run(step_schedulers: bool, epochs: int = 30, gamma: float = 0.95):
    torch.manual_seed(0)
    g = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 8))
    d = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    opt_g = torch.optim.AdamW(g.parameters(), lr=1e-4, betas=(0.8, 0.99))
    opt_d = torch.optim.AdamW(d.parameters(), lr=1e-4, betas=(0.8, 0.99))
    sch_g = torch.optim.lr_scheduler.ExponentialLR(opt_g, gamma=gamma)
    sch_d = torch.optim.lr_scheduler.ExponentialLR(opt_d, gamma=gamma)
    gen = torch.Generator().manual_seed(1)
    lrs = []
    for epoch in range(epochs):
        for _ in range(4):
            real = torch.randn(16, 8, generator=gen) + 2.0
            z = torch.randn(16, 8, generator=gen)
            opt_d.zero_grad()
            loss_d = ((d(real) - 1) ** 2).mean() + (d(g(z).detach()) ** 2).mean()
            loss_d.backward()
            opt_d.step()
            opt_g.zero_grad()
            loss_g = ((d(g(z)) - 1) ** 2).mean()
            loss_g.backward()
            opt_g.step()
        if step_schedulers:
            sch_g.step()
            sch_d.step()
        lrs.append(opt_g.param_groups[0]["lr"])
    return lrs


def _check() -> str:
    idle = _run(False)
    stepped = _run(True)
    assert max(idle) == min(idle) == 1e-4, (min(idle), max(idle))
    assert stepped[-1] < 0.3 * stepped[0], stepped[-1]
    return (f"schedulers never stepped: lr {idle[0]:.1e} -> {idle[-1]:.1e} over {len(idle)} epochs; "
            f"stepped once per epoch: {stepped[0]:.1e} -> {stepped[-1]:.1e}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
