import torch
import torch.nn as nn
import torch.nn.functional as F


def _images(n, seed):
    """One-class 'instance' masks: a noisy blob whose pixels must be segmented from the background."""
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(16.0), torch.arange(16.0), indexing="ij")
    cy, cx = (4 + 8 * torch.rand(n, 2, generator=g)).unbind(1)
    r = 2 + 3 * torch.rand(n, generator=g)
    mask = (((yy - cy.view(-1, 1, 1)) ** 2 + (xx - cx.view(-1, 1, 1)) ** 2) < r.view(-1, 1, 1) ** 2).float()
    x = mask + 1.0 * torch.randn(n, 16, 16, generator=g)
    return x.unsqueeze(1), mask.unsqueeze(1)


def _check() -> str:
    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(),
        nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
        nn.Flatten(), nn.Linear(16 * 16 * 16, 256),
    )
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x, m = _images(48, 1)  # a small annotated training set
    vx, vm = _images(96, 2)
    train_curve, val_curve = [], []
    for _ in range(20):
        for i in range(0, len(x), 8):
            opt.zero_grad()
            F.binary_cross_entropy_with_logits(model(x[i : i + 8]), m[i : i + 8].flatten(1)).backward()
            opt.step()
        with torch.no_grad():
            train_curve.append(F.binary_cross_entropy_with_logits(model(x), m.flatten(1)).item())
            val_curve.append(F.binary_cross_entropy_with_logits(model(vx), vm.flatten(1)).item())
    best = min(range(len(val_curve)), key=val_curve.__getitem__)
    assert 0 < best < len(val_curve) - 5 and val_curve[-1] > 1.15 * val_curve[best], val_curve
    assert train_curve[-1] < 0.5 * train_curve[best], train_curve
    return (f"val mask loss {val_curve[0]:.3f} -> min {val_curve[best]:.3f} at epoch {best + 1} -> {val_curve[-1]:.3f} "
            f"at epoch 20; train mask loss {train_curve[best]:.3f} -> {train_curve[-1]:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
