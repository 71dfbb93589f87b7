"""Self-contained: manual-SGD linear regression with and without zeroing w.grad / b.grad."""

import torch


def _run(zero, lr):
    torch.manual_seed(0)
    x = torch.rand(20, 1) * 10
    y = 2 * x + (5 + torch.randn(20, 1))
    w = torch.randn(1, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    losses = []
    for _ in range(300):
        loss = (0.5 * (y - (w * x + b)) ** 2).mean()
        loss.backward()
        b.data.sub_(lr * b.grad)
        w.data.sub_(lr * w.grad)
        if zero:
            w.grad.zero_()
            b.grad.zero_()
        losses.append(loss.item())
    return losses


def _check() -> str:
    bad = _run(False, 1e-3)
    ok = _run(True, 1e-3)
    tiny = _run(False, 1e-5)
    best = min(bad[:50])
    assert best < bad[0] and max(bad[50:]) > 5 * best, (bad[0], best, max(bad[50:]))
    ups = sum(b2 > b1 for b1, b2 in zip(bad, bad[1:]))
    assert ups > 20, ups
    assert ok[-1] < 0.1 * ok[0] and max(ok[100:]) < 1.5 * ok[-1], (ok[0], ok[-1])
    assert max(tiny[150:]) > 3 * min(tiny), (min(tiny), max(tiny[150:]))
    return (f"no grad zeroing (lr 1e-3): loss {bad[0]:.1f} -> {best:.2f} -> back up to {max(bad[50:]):.1f}, "
            f"{ups} increases in 300 steps; even lr 1e-5 climbs back to {max(tiny[150:]):.1f} from {min(tiny):.2f}; "
            f"with zeroing: {ok[0]:.1f} -> {ok[-1]:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
