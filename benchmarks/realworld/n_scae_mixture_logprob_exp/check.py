"""Self-contained: a pixel-mixture likelihood trained with the naive log(sum(exp(.))) vs logsumexp."""

import math

import torch


def _loss(image, templates, logits, sigma, naive):
    comp = -0.5 * ((image.unsqueeze(1) - templates) / sigma) ** 2 - torch.log(sigma * math.sqrt(2 * math.pi))
    mix = torch.log_softmax(logits, 1).unsqueeze(-1)
    if naive:
        ll = torch.log(torch.sum(torch.exp(mix + comp), 1))
    else:
        ll = torch.logsumexp(mix + comp, 1)
    return -ll.sum(-1).mean()


def _run(naive):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    true_t = torch.rand(4, 64, generator=g)
    templates = (true_t + 0.3 * torch.randn(4, 64, generator=g)).requires_grad_()
    logits = torch.zeros(8, 4, requires_grad=True)
    log_sigma = torch.tensor(math.log(0.3), requires_grad=True)
    opt = torch.optim.Adam([templates, logits, log_sigma], lr=0.05)
    losses = []
    for step in range(150):
        k = torch.randint(0, 4, (8,), generator=g)
        image = true_t[k] + 0.01 * torch.randn(8, 64, generator=g)
        salt = torch.rand(8, 64, generator=g) < 0.01  # a few sensor-noise pixels
        image = torch.where(salt, torch.rand(8, 64, generator=g), image)
        loss = _loss(image, templates, logits, log_sigma.exp(), naive)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, templates


def _check() -> str:
    bad, bad_t = _run(True)
    ok, ok_t = _run(False)
    first_bad = next(i for i, v in enumerate(bad) if not math.isfinite(v))
    assert all(math.isfinite(v) for v in ok), ok
    assert first_bad < 150 and not torch.isfinite(bad_t).all(), (first_bad,)
    return (f"naive log(sum(exp)): loss {bad[0]:.1f} -> non-finite at step {first_bad}, templates become NaN; "
            f"logsumexp: loss {ok[0]:.1f} -> {ok[-1]:.1f}, all finite")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
