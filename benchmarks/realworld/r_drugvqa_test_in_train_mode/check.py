"""Self-contained: a BatchNorm2d CNN tested one sample at a time, in train mode vs eval mode."""

import torch
from torch import nn


def _data(n, g):
    y = torch.randint(0, 2, (n,), generator=g)
    # the class shifts the overall level of the contact map, a per-sample mean that batch-of-1 BN removes
    x = torch.randn(n, 1, 12, 12, generator=g) + (1.5 * y - 0.75).view(-1, 1, 1, 1)
    return x, y.float()


def _model():
    return nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 1),
    )


def _test(model, x, y, eval_mode):
    if eval_mode:
        model.eval()
    with torch.no_grad():
        p = torch.cat([model(x[i:i + 1]) for i in range(len(x))]).squeeze(1)
    return ((p > 0).float() == y).float().mean().item()


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    x, y = _data(512, g)
    xt, yt = _data(200, g)
    model = _model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(5):
        model.train()
        for i in range(0, 512, 32):
            loss = nn.functional.binary_cross_entropy_with_logits(model(x[i:i + 32]).squeeze(1), y[i:i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
    rm_before, rv_before = model[1].running_mean.clone(), model[1].running_var.clone()
    model.train()
    bad = _test(model, xt, yt, eval_mode=False)
    drift = (model[1].running_mean - rm_before).abs().max().item()
    model[1].running_mean.copy_(rm_before)
    model[1].running_var.copy_(rv_before)
    ok = _test(model, xt, yt, eval_mode=True)
    assert ok > 0.9 and bad < 0.7, (ok, bad)
    assert drift > 1e-3, drift
    return (f"test one sample at a time in train mode: acc {bad:.2f} (BN running mean moved by {drift:.3f}); "
            f"same weights in eval mode: acc {ok:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
