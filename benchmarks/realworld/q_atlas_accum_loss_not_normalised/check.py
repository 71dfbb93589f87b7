"""Self-contained: learned task-vector coefficients on a frozen linear 'backbone'. Accumulating 4 micro-batch losses
without dividing gives a gradient 4x the full-batch one, and plain SGD then overshoots."""

import torch
import torch.nn.functional as F


def _setup():
    g = torch.Generator().manual_seed(0)
    base = torch.randn(10, 32, generator=g) / 32**0.5
    task_vectors = torch.randn(8, 10, 32, generator=g) / 32**0.5
    true_coef = torch.rand(8, generator=g)
    x = torch.randn(1024, 32, generator=g)
    y = (x @ (base + torch.einsum("k,kcd->cd", true_coef, task_vectors)).T).argmax(1)
    return base, task_vectors, x, y


def _train(accum, divide, lr=4.0, steps=40):
    base, tv, x, y = _setup()
    coef = torch.zeros(8, requires_grad=True)
    opt = torch.optim.SGD([coef], lr=lr)
    gnorms, losses = [], []
    for s in range(steps):
        xb, yb = x[(s * 128) % 1024:(s * 128) % 1024 + 128], y[(s * 128) % 1024:(s * 128) % 1024 + 128]
        opt.zero_grad()
        for xm, ym in zip(xb.chunk(accum), yb.chunk(accum)):
            loss = F.cross_entropy(xm @ (base + torch.einsum("k,kcd->cd", coef, tv)).T, ym)
            (loss / accum if divide else loss).backward()
        gnorms.append(coef.grad.norm().item())
        opt.step()
        with torch.no_grad():
            losses.append(F.cross_entropy(x @ (base + torch.einsum("k,kcd->cd", coef, tv)).T, y).item())
    return gnorms, losses, coef.detach()


def _check() -> str:
    g_full, l_full, c_full = _train(1, True)
    g_bad, l_bad, c_bad = _train(4, False)
    g_ok, l_ok, _ = _train(4, True)
    ratio = g_bad[0] / g_full[0]
    assert 3.5 < ratio < 4.5, ratio
    assert abs(g_ok[0] / g_full[0] - 1) < 0.05
    assert min(l_bad) > min(l_full) + 0.02 or max(l_bad[5:]) > 1.5 * max(l_full[5:]), (l_bad, l_full)
    assert c_bad.norm() > 1.3 * c_full.norm(), (c_bad.norm(), c_full.norm())
    return (f"4 micro-batches, losses not divided: first-step grad norm {ratio:.2f}x the batch-128 one, "
            f"best loss {min(l_bad):.3f} vs {min(l_full):.3f}, coefficient norm {c_bad.norm():.2f} vs {c_full.norm():.2f}; "
            f"divided by 4: grad ratio {g_ok[0] / g_full[0]:.2f}, best loss {min(l_ok):.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
