import torch
import torch.nn as nn
import torch.nn.functional as F


class _Cell(nn.Module):
    """Two update paths (cell and memory) whose increments a shared adapter should decorrelate."""

    def __init__(self, d=16):
        super().__init__()
        self.dc = nn.Linear(d, d)
        self.dm = nn.Linear(d, d)
        self.adapter = nn.Linear(d, d, bias=False)
        self.out = nn.Linear(d, d)

    def forward(self, x, stacked):
        delta_c, delta_m = self.dc(x), self.dm(x)
        pred = self.out(torch.tanh(delta_c + delta_m))
        terms = [F.cosine_similarity(self.adapter(delta_c), self.adapter(delta_m), dim=1).abs().mean()]
        decouple = torch.stack(terms).mean() if stacked else torch.tensor([t.item() for t in terms]).mean()
        return pred, decouple


def _run(stacked, beta):
    torch.manual_seed(0)
    cell = _Cell()
    with torch.no_grad():
        cell.dm.weight.copy_(cell.dc.weight + 0.1 * torch.randn_like(cell.dc.weight))  # strongly correlated paths
    opt = torch.optim.Adam(cell.parameters(), lr=1e-2)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(256, 16, generator=g)
    y = torch.roll(x, 1, dims=1)
    first = None
    for _ in range(150):
        pred, dec = cell(x, stacked)
        loss = F.mse_loss(pred, y) + beta * dec
        opt.zero_grad()
        loss.backward()
        opt.step()
        first = dec.item() if first is None else first
    return first, dec.item(), dec.requires_grad, F.mse_loss(pred, y).item()


def _check() -> str:
    first, last, rg, mse_bug = _run(False, 1.0)
    _, _, _, mse_bug_b100 = _run(False, 100.0)
    first_ok, last_ok, _, _ = _run(True, 1.0)
    assert not rg and abs(mse_bug - mse_bug_b100) < 1e-6, (rg, mse_bug, mse_bug_b100)
    assert last_ok < 0.5 * first_ok and last > 0.3, (first, last, first_ok, last_ok)
    return (
        f"decouple loss requires_grad={rg}; beta 1 vs 100 give the same MSE ({mse_bug:.4f}); "
        f"the term barely moves ({first:.2f}->{last:.2f}) vs {first_ok:.2f}->{last_ok:.2f} when stacked"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
