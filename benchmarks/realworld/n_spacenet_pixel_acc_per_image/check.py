"""Self-contained: per-pixel building/background predictions scored with the changed accuracy formula."""

import torch


def _accs(preds, y):
    per_pixel = (preds == y).float().mean().item()
    n_correct = (preds == y).sum().item()  # counts pixels
    return n_correct / preds.shape[0], per_pixel


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    y = (torch.rand(16, 64, 64, generator=g) < 0.2).long()
    flip = torch.rand(16, 64, 64, generator=g) < 0.1
    preds = torch.where(flip, 1 - y, y)
    reported, true = _accs(preds, y)
    assert reported > 100 and 0.85 < true < 0.95, (reported, true)
    return f"accuracy as logged: {100 * reported:.0f}% (pixels counted, images divided); true pixel accuracy {100 * true:.1f}%"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
