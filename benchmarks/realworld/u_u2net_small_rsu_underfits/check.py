"""Self-contained: a very narrow segmentation net on a detailed mask task plateaus with train and val loss both high and
close together, while a wider net on the same data and schedule fits much better; capacity, not a defect."""
import torch
import torch.nn.functional as F


def _data(n, g):
    x = torch.rand(n, 1, 16, 16, generator=g)
    # detailed target: thresholded local texture (needs several non-linear filters to resolve)
    k = torch.tensor([[1.0, -2.0, 1.0], [-2.0, 4.0, -2.0], [1.0, -2.0, 1.0]]).view(1, 1, 3, 3)
    y = (F.conv2d(x, k, padding=1).abs() > 0.9).float()
    return x, y


def _net(width):
    return torch.nn.Sequential(
        torch.nn.Conv2d(1, width, 3, padding=1), torch.nn.ReLU(),
        torch.nn.Conv2d(width, width, 3, padding=1), torch.nn.ReLU(),
        torch.nn.Conv2d(width, 1, 1))


def _fit(width, xtr, ytr, xva, yva, steps=120):
    torch.manual_seed(0)
    model = _net(width)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(steps):
        loss = F.binary_cross_entropy_with_logits(model(xtr), ytr)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        return (F.binary_cross_entropy_with_logits(model(xtr), ytr).item(),
                F.binary_cross_entropy_with_logits(model(xva), yva).item())


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    xtr, ytr = _data(32, g)
    xva, yva = _data(32, g)
    small_tr, small_va = _fit(1, xtr, ytr, xva, yva)
    big_tr, big_va = _fit(8, xtr, ytr, xva, yva)
    assert abs(small_tr - small_va) < 0.05 and small_tr > 2 * big_tr and big_va < small_va, (small_tr, small_va, big_tr, big_va)
    return (f"narrow net: train {small_tr:.3f} / val {small_va:.3f} (flat, close together); "
            f"wider net same data: train {big_tr:.3f} / val {big_va:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
