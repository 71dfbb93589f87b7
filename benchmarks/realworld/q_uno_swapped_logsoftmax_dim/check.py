"""Self-contained: the swapped-prediction CE on [views, batch, classes] with log_softmax over dim=1 (the batch).
Each sample's 'log-probabilities' no longer normalise over classes and its loss depends on the rest of the batch."""

import torch
import torch.nn.functional as F


def _ce(preds, targets, dim, temp=0.1):
    logp = F.log_softmax(preds / temp, dim=dim)
    return -(targets * logp).sum(-1)  # per [view, sample]


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    v, b, c = 2, 64, 15
    logits = torch.randn(v, b, c, generator=g)
    targets = F.softmax(torch.randn(v, b, c, generator=g) / 0.1, dim=-1).flip(0)
    probs_sum = F.log_softmax(logits / 0.1, dim=1).exp().sum(-1)
    bad = _ce(logits, targets, dim=1)
    good = _ce(logits, targets, dim=-1)
    other = logits.clone()
    other[:, 1:] = torch.randn(v, b - 1, c, generator=g)  # change every other sample, keep sample 0
    bad2 = _ce(other, targets, dim=1)
    good2 = _ce(other, targets, dim=-1)
    half = _ce(logits[:, : b // 2], targets[:, : b // 2], dim=1)
    assert (probs_sum - 1).abs().max() > 0.5, probs_sum
    assert (bad[:, 0] - bad2[:, 0]).abs().max() > 0.1 and (good[:, 0] - good2[:, 0]).abs().max() < 1e-5
    assert abs(bad.mean() - half.mean()) > 0.05 or (bad[:, : b // 2] - half).abs().max() > 0.1
    return (f"log_softmax over dim=1 of [views, batch, classes]: per-sample prob sums over classes range "
            f"{probs_sum.min():.2f}..{probs_sum.max():.2f}; sample 0's loss {bad[0, 0]:.2f} -> {bad2[0, 0]:.2f} when only "
            f"the other samples change (over classes: {good[0, 0]:.2f} -> {good2[0, 0]:.2f}); batch-mean loss "
            f"{bad.mean():.2f} at batch {b} vs {half.mean():.2f} at batch {b // 2}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
