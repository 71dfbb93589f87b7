"""Self-contained: a small embedding + MLP click model trained with and without clearing gradients each step."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, D = 200, 300, 16


class ClickModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = nn.Embedding(N_USERS, D)
        self.item = nn.Embedding(N_ITEMS, D)
        self.mlp = nn.Sequential(nn.Linear(2 * D, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, u, i):
        return self.mlp(torch.cat([self.user(u), self.item(i)], -1)).squeeze(-1)


def _batches(g, steps, n=256):
    tu = torch.randn(N_USERS, 4, generator=torch.Generator().manual_seed(5))
    ti = torch.randn(N_ITEMS, 4, generator=torch.Generator().manual_seed(6))
    for _ in range(steps):
        u = torch.randint(0, N_USERS, (n,), generator=g)
        i = torch.randint(0, N_ITEMS, (n,), generator=g)
        y = (tu[u, 0] + ti[i, 0] > 0).float()
        yield u, i, y


def _train(zero_grad):
    torch.manual_seed(0)
    model = ClickModel()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    losses = []
    for u, i, y in _batches(torch.Generator().manual_seed(1), 400):
        if zero_grad:
            opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(model(u, i), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    grad_norm = sum(p.grad.norm() ** 2 for p in model.parameters()).sqrt().item()
    return losses, grad_norm


def _avg(xs):
    return sum(xs) / len(xs)


def _check() -> str:
    bad, g_bad = _train(False)
    good, g_good = _train(True)
    bad_end = _avg(bad[-50:])
    best = min(range(len(bad)), key=bad.__getitem__)
    assert bad_end > 3 * _avg(good[-50:]), (bad_end, _avg(good[-50:]))
    assert max(bad[best:]) > 3 * bad[best], (bad[best], max(bad[best:]))
    assert g_bad > 20 * g_good, (g_bad, g_good)
    return (f"no zero_grad: loss {_avg(bad[:10]):.3f} (first 10) -> low {bad[best]:.3f} at step {best + 1}, "
            f"then back up to {max(bad[best:]):.2f}, {bad_end:.3f} (last 50 steps), final grad norm {g_bad:.3g}; "
            f"with zero_grad: {_avg(good[:10]):.3f} -> {_avg(good[-50:]):.3f}, grad norm {g_good:.3g}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
