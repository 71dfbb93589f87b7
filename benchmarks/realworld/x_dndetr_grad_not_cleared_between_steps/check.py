"""Self-contained: a box head trained with backward + clip(0.1) + AdamW step and no zero_grad. The
gradient that gets clipped and applied is the current batch's gradient plus everything left from earlier steps, so its
direction lines up much less with the current batch's own gradient than in the same loop with zero_grad."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _batch(g, w, n=32):
    x = torch.randn(n, 12, generator=g)
    return x, torch.tanh(x @ w)


def _run(zero_grad):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(12, 48), nn.ReLU(), nn.Linear(48, 4))
    opt = torch.optim.AdamW(model.parameters(), lr=5e-3, weight_decay=1e-4)
    w = torch.randn(12, 4, generator=torch.Generator().manual_seed(6)) / 2
    g = torch.Generator().manual_seed(2)
    cos, pre = [], []
    for _ in range(300):
        x, y = _batch(g, w)
        loss = F.mse_loss(model(x), y)
        own = torch.autograd.grad(loss, list(model.parameters()), retain_graph=True)
        if zero_grad:
            opt.zero_grad()
        loss.backward()
        used = torch.cat([p.grad.flatten() for p in model.parameters()])
        own = torch.cat([o.flatten() for o in own])
        cos.append(F.cosine_similarity(used, own, dim=0).item())
        pre.append(float(torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)))
        opt.step()
    return sum(cos[100:]) / 200, sum(pre[100:]) / 200


def _check() -> str:
    cos, pre = _run(False)
    ok_cos, ok_pre = _run(True)
    assert ok_cos > 0.999 and cos < 0.97, (cos, ok_cos)
    assert pre > 1.2 * ok_pre, (pre, ok_pre)
    return (f"no zero_grad: cosine(applied grad, current batch grad) {cos:.3f}, mean pre-clip norm {pre:.3f}; "
            f"with zero_grad: cosine {ok_cos:.3f}, pre-clip norm {ok_pre:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
