"""Top-k key columns from softmax(q_last k^T) with and without 1/sqrt(d): how much attention mass they keep."""

import math

import torch

D, T, LAST_Q, TOPK = 128, 2048, 64, 64


def _estimate(q_last, k, scaled):
    s = q_last @ k.T
    if scaled:
        s = s / math.sqrt(D)
    return torch.softmax(s, dim=-1)


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    k = torch.randn(T, D, generator=g)
    q = torch.randn(T, D, generator=g)
    u = torch.randn(D, generator=g)
    u = u / u.norm() * math.sqrt(D)
    sink = torch.randperm(T - LAST_Q, generator=g)[:48]
    k[sink] += 0.15 * u  # heavy-hitter key columns that most queries attend to
    q += 0.5 * u
    full_q = torch.randn(512, D, generator=g) + 0.5 * u  # the rows the sparse kernel will serve
    true_mass = torch.softmax(full_q @ k.T / math.sqrt(D), dim=-1).mean(0)  # real attention, scaled
    res = {}
    for scaled in (False, True):
        est = _estimate(q[-LAST_Q:], k, scaled)
        cols = est.sum(0).topk(TOPK).indices
        entropy = -(est * est.clamp_min(1e-30).log()).sum(-1).mean().item()
        res[scaled] = (true_mass[cols].sum().item(), entropy, est.max(-1).values.mean().item())
    kept_b, ent_b, peak_b = res[False]
    kept_ok, ent_ok, peak_ok = res[True]
    assert peak_b > 0.5 and ent_ok > 3 * ent_b, (peak_b, ent_b, ent_ok)
    assert kept_ok > 1.15 * kept_b, (kept_b, kept_ok)
    return (f"unscaled estimate: mean row max prob {peak_b:.2f}, entropy {ent_b:.2f}, top-{TOPK} columns keep "
            f"{kept_b:.3f} of the real attention mass; scaled by 1/sqrt({D}): max prob {peak_ok:.3f}, entropy "
            f"{ent_ok:.2f}, columns keep {kept_ok:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
