import torch
import torch.nn as nn
import torch.nn.functional as F


def _pairs(n, seed):
    g = torch.Generator().manual_seed(seed)
    sketch = torch.rand(n, 1, 8, 8, generator=g)
    mix = torch.tensor([0.9, -0.4, 0.6]).view(1, 3, 1, 1)
    colour = torch.sigmoid(4 * (sketch - 0.5) * mix + F.avg_pool2d(sketch, 3, 1, 1))
    return sketch, colour


def _check() -> str:
    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.SiLU(), nn.Conv2d(16, 16, 3, padding=1), nn.SiLU(), nn.Conv2d(16, 3, 1)
    )
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x, y = _pairs(512, 1)
    vx, vy = _pairs(256, 2)
    val = []
    for _ in range(30):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            F.mse_loss(torch.sigmoid(model(x[i : i + 32])), y[i : i + 32]).backward()
            opt.step()
        with torch.no_grad():
            val.append(F.mse_loss(torch.sigmoid(model(vx)), vy).item())
    e4, e10, e30 = val[3], val[9], val[29]
    assert e4 > 2 * e30 and val[3] < val[2] and e30 < e10 < e4, val
    return (
        f"same model and data: val MSE {e4:.4f} after 4 epochs, {e10:.4f} after 10, {e30:.4f} after 30 (still falling)"
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
