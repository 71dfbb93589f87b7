import torch
import torch.nn as nn
import torch.nn.functional as F


def _batch(g, n=64):
    real = torch.randn(n, 8, generator=g) + 0.6
    fake = torch.randn(n, 8, generator=g) - 0.6  # encoder/generator output, held fixed here
    return real, fake


def _d_loss(d, real, fake):
    return F.softplus(-d(real)).mean() + F.softplus(d(fake)).mean()  # non-saturating logistic GAN loss


def _run(zero_grad_d):
    torch.manual_seed(0)
    d = nn.Sequential(nn.Linear(8, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
    opt_d = torch.optim.Adam(d.parameters(), lr=1e-3, betas=(0.0, 0.99))
    g = torch.Generator().manual_seed(1)
    losses, gnorms = [], []
    for _ in range(300):
        real, fake = _batch(g)
        if zero_grad_d:
            opt_d.zero_grad()
        loss = _d_loss(d, real, fake)
        loss.backward()
        gnorms.append(torch.cat([p.grad.flatten() for p in d.parameters()]).norm().item())
        opt_d.step()
        losses.append(loss.item())
    return sum(losses[-50:]) / 50, gnorms[-1] / gnorms[0]


def _check() -> str:
    (lb, gb), (lo, go) = _run(False), _run(True)
    assert lb > lo + 0.1 and gb > 10 * go, (lb, gb, lo, go)
    return (f"300 D steps: mean D loss {lb:.2f}, grad norm x{gb:.0f} of step 1 without optimizer_D.zero_grad(); "
            f"{lo:.2f}, x{go:.2f} with it")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
