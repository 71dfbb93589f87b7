"""Self-contained: LoRA adapters on a frozen linear 'LM head', trained with and without zeroing gradients."""

import torch
import torch.nn.functional as F


def _run(zero_grad):
    torch.manual_seed(0)
    d, v, r = 32, 50, 4
    base = torch.randn(v, d) / d**0.5  # frozen pretrained weight
    A = (torch.randn(r, d) / d**0.5).requires_grad_()
    B = torch.zeros(v, r, requires_grad=True)
    opt = torch.optim.SGD([A, B], lr=0.5, momentum=0.0)
    g = torch.Generator().manual_seed(1)
    teacher = torch.randn(v, d, generator=g) / d**0.5
    losses, gnorms = [], []
    for step in range(60):
        x = torch.randn(64, d, generator=g)
        y = (x @ teacher.T).argmax(-1)
        if zero_grad:
            opt.zero_grad()
        logits = x @ (base + B @ A).T
        loss = F.cross_entropy(logits, y)
        loss.backward()
        gnorms.append(torch.cat([A.grad.flatten(), B.grad.flatten()]).norm().item())
        opt.step()
        losses.append(loss.item())
    return losses, gnorms


def _check() -> str:
    bad_l, bad_g = _run(False)
    ok_l, ok_g = _run(True)
    best_early = min(bad_l[:15])
    assert max(bad_l[20:]) > bad_l[0] and best_early < bad_l[0], (bad_l[0], best_early, max(bad_l[20:]))
    assert bad_g[-1] > 5 * bad_g[5] and ok_l[-1] < ok_l[0], (bad_g[5], bad_g[-1], ok_l[0], ok_l[-1])
    return (
        f"no zero_grad: loss {bad_l[0]:.2f} -> {best_early:.2f} (first 15 steps) -> up to {max(bad_l[20:]):.2f}, "
        f"grad norm {bad_g[5]:.2f} -> {bad_g[-1]:.2f}; with zero_grad: loss {ok_l[0]:.2f} -> {ok_l[-1]:.2f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
