"""Self-contained: per-pixel class probabilities [b, h*w, c] turned into [b, c, h, w] by view alone vs view+permute."""

import torch


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    b, c, h, w = 2, 19, 16, 24
    # a ground-truth class map with spatial structure (blocks), and confident per-pixel probabilities for it
    labels = (torch.arange(h).view(h, 1) // 4 * 5 + torch.arange(w).view(1, w) // 6).remainder(c)
    labels = labels.expand(b, h, w).clone()
    logits = torch.randn(b, h * w, c, generator=g) * 0.5
    logits.scatter_add_(2, labels.view(b, h * w, 1), torch.full((b, h * w, 1), 6.0))
    probs = logits.softmax(-1)                                   # [b, h*w, c]
    right = probs.view(b, h, w, c).permute(0, 3, 1, 2).contiguous()
    wrong = probs.view(b, c, h, w)
    agree_right = (right.argmax(1) == labels).float().mean().item()
    agree_wrong = (wrong.argmax(1) == labels).float().mean().item()
    sums_wrong = wrong.sum(1)
    assert not torch.allclose(right, wrong)
    assert agree_right > 0.95 and agree_wrong < 0.2, (agree_right, agree_wrong)
    assert (sums_wrong - 1).abs().max().item() > 0.1   # the 'class' axis no longer holds a distribution
    return (f"pixel agreement of argmax with true class map: view+permute {agree_right:.2f}, bare view {agree_wrong:.2f}; "
            f"bare-view class sums range {sums_wrong.min().item():.2f}..{sums_wrong.max().item():.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
