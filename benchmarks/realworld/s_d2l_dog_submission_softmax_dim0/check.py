"""Self-contained: softmax over dim=0 of (batch, 120) logits gives rows that do not sum to 1 and a far worse log loss."""

import torch
import torch.nn.functional as F


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    n, k = 128, 120
    y = torch.randint(0, k, (n,), generator=g)
    logits = torch.randn(n, k, generator=g)
    logits[torch.arange(n), y] += 4.0  # a reasonably trained classifier
    good = F.softmax(logits, dim=1)
    bad = F.softmax(logits, dim=0)
    row_sums = bad.sum(1)
    nll_good = -torch.log(good[torch.arange(n), y].clamp_min(1e-15)).mean().item()
    # Kaggle renormalises each submitted row before scoring
    bad_norm = bad / row_sums[:, None]
    nll_bad = -torch.log(bad_norm[torch.arange(n), y].clamp_min(1e-15)).mean().item()
    assert (row_sums - 1).abs().max() > 0.2, row_sums
    assert torch.allclose(bad.sum(0), torch.ones(k), atol=1e-5)
    assert nll_bad > nll_good + 0.2, (nll_good, nll_bad)
    return (f"dim=0 softmax: row sums {row_sums.min():.2f}..{row_sums.max():.2f}, columns sum to 1; "
            f"log loss {nll_bad:.3f} vs {nll_good:.3f} with dim=1")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
