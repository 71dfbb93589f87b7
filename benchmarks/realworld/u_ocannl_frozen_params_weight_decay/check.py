"""Self-contained: a head trained on a stop-gradient encoder; the hand-written SGD update maps over all parameters
(encoder included) with weight decay."""
import torch
import torch.nn.functional as F


def sgd_update(params, lr, weight_decay):
    with torch.no_grad():
        for p in params:
            g = p.grad if p.grad is not None else torch.zeros_like(p)
            p -= lr * (g + weight_decay * p)


def _run(weight_decay, steps=300):
    torch.manual_seed(0)
    encoder = torch.nn.Sequential(torch.nn.Linear(10, 32), torch.nn.ReLU(), torch.nn.Linear(32, 16))
    head = torch.nn.Linear(16, 3)
    start = [p.detach().clone() for p in encoder.parameters()]
    params = list(encoder.parameters()) + list(head.parameters())
    g = torch.Generator().manual_seed(1)
    for _ in range(steps):
        x = torch.randn(32, 10, generator=g)
        y = torch.randint(0, 3, (32,), generator=g)
        with torch.no_grad():
            feats = encoder(x)
        loss = F.cross_entropy(head(feats), y)
        for p in params:
            p.grad = None
        loss.backward()
        sgd_update(params, 0.5, weight_decay)
    enc_grads = [p.grad for p in encoder.parameters()]
    ratio = [float(p.detach().norm() / s.norm()) for p, s in zip(encoder.parameters(), start)]
    return enc_grads, ratio


def _check() -> str:
    grads, ratio = _run(weight_decay=2e-3)
    _, ratio0 = _run(weight_decay=0.0)
    assert all(gr is None for gr in grads) and max(ratio) < 0.8 and min(ratio0) == 1.0 == max(ratio0), (ratio, ratio0)
    return (f"frozen encoder never gets a gradient, yet its weight norms shrink to {min(ratio):.2f}-{max(ratio):.2f} of the "
            f"loaded values with weight_decay=2e-3 (unchanged with weight_decay=0)")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
