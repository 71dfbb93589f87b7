"""Self-contained: a bounded similarity metric averaged per batch vs with the edited validation accumulation."""

import torch


def _sim(pred, y):
    # a bounded image similarity in [0, 1] (1 = identical), averaged over the batch
    err = (pred - y).abs().flatten(1).mean(1)
    return (1.0 / (1.0 + 5.0 * err)).mean()


def _check() -> str:
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Conv2d(1, 4, 3, padding=1), torch.nn.ReLU(), torch.nn.Conv2d(4, 1, 3, padding=1))
    g = torch.Generator().manual_seed(1)
    loader = [(torch.rand(8, 1, 16, 16, generator=g),) * 2 for _ in range(6)]
    loader = [(x, x + 0.05 * torch.randn(x.shape, generator=g)) for x, _ in loader]
    per_batch, tot_bug, tot_ok, n = [], 0.0, 0.0, 0
    with torch.no_grad():
        for x, y in loader:
            s = _sim(net(x), y).item()
            per_batch.append(s)
            tot_bug += s * x.shape[0]
            tot_ok += s * x.shape[0]
            n += x.shape[0]
    bug = tot_bug / len(loader)
    ok = tot_ok / n
    assert max(per_batch) <= 1.0 and bug > 1.0 and ok <= 1.0, (per_batch, bug, ok)
    return f"per-batch similarity {min(per_batch):.3f}-{max(per_batch):.3f}, logged val average {bug:.3f} (correct {ok:.3f})"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
