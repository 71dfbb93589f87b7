"""Self-contained: tied-embedding LM with the p*log(p) confidence penalty goes NaN once a softmax entry underflows to 0."""

import torch
from torch import nn
import torch.nn.functional as F


def _run(stable):
    torch.manual_seed(0)
    V, d = 500, 64
    emb = nn.Embedding(V, d)
    net = nn.Sequential(nn.Linear(d, d), nn.Tanh())
    opt = torch.optim.Adam(list(emb.parameters()) + list(net.parameters()), lr=1e-2)
    g = torch.Generator().manual_seed(1)
    losses = []
    for step in range(120):
        x = torch.randint(0, V, (64,), generator=g)
        y = (x * 7 + 3) % V
        logits = net(emb(x)) * 3 @ emb.weight.T
        if stable:
            pen = (F.softmax(logits, -1) * F.log_softmax(logits, -1)).sum(-1).mean()
        else:
            p = F.softmax(logits, -1)
            pen = (p * torch.log(p)).sum(-1).mean()
        loss = F.cross_entropy(logits, y) + 0.1 * pen
        losses.append(loss.item())
        if not torch.isfinite(loss):
            return losses, step
        opt.zero_grad()
        loss.backward()
        opt.step()
    return losses, None


def _check() -> str:
    bad, nan_step = _run(False)
    ok, ok_nan = _run(True)
    assert nan_step is not None and nan_step > 10 and all(map(lambda v: v == v, bad[:nan_step])), nan_step
    assert ok_nan is None and ok[-1] < ok[0], (ok_nan, ok[0], ok[-1])
    return (f"p*log(p) penalty: loss {bad[0]:.1f} -> {bad[nan_step - 1]:.2f}, then NaN at step {nan_step}; "
            f"log_softmax form stays finite ({ok[-1]:.3f} at step 120)")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
