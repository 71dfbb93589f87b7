"""Self-contained: the same training run logged two ways; the nominal-denominator log dips at every epoch end."""
import torch
from torch import nn
import torch.nn.functional as F


def _check() -> str:
    torch.manual_seed(0)
    n, bs, log_every = 1000, 32, 4  # 1000 % 32 == 8: each epoch ends on a batch of 8
    x = torch.randn(n, 16)
    y = (x[:, :4].sum(1) + 0.8 * torch.randn(n) > 0).long()
    model = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.02)
    n_batches = (n + bs - 1) // bs
    logged_bad, logged_ok = [], []
    for epoch in range(3):
        g = torch.Generator().manual_seed(epoch)
        perm = torch.randperm(n, generator=g)
        run_loss, run_n = 0.0, 0
        for step in range(n_batches):
            idx = perm[step * bs:(step + 1) * bs]
            loss = F.cross_entropy(model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            run_loss += loss.item() * len(idx)
            run_n += len(idx)
            last = step == n_batches - 1
            if (step + 1) % log_every == 0 or last:
                logged_bad.append((last, run_loss / ((step % log_every + 1) * bs)))
                logged_ok.append((last, run_loss / run_n))
                run_loss, run_n = 0.0, 0
    drops_bad = [b[1] / a[1] for a, b in zip(logged_bad, logged_bad[1:]) if b[0]]
    drops_ok = [b[1] / a[1] for a, b in zip(logged_ok, logged_ok[1:]) if b[0]]
    assert all(r < 0.85 for r in drops_bad), drops_bad
    assert all(r > 0.85 for r in drops_ok), drops_ok
    return (f"logged loss at epoch ends falls to {min(drops_bad):.2f}-{max(drops_bad):.2f}x the previous log point "
            f"with the nominal denominator vs {min(drops_ok):.2f}-{max(drops_ok):.2f}x when dividing by samples seen "
            f"(same weights, same training)")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
