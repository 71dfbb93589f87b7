import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n=64, size=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    sharp = torch.rand(n, size * size, generator=g)
    kernel = torch.tensor([0.25, 0.5, 0.25])
    img = sharp.reshape(n, 1, size, size)
    blurred = F.conv2d(F.pad(img, (1, 1, 0, 0), mode="replicate"), kernel.view(1, 1, 1, 3))
    return blurred.reshape(n, -1), sharp


def _check() -> str:
    torch.manual_seed(0)
    blurred, sharp = _data()
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 64))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    per_epoch = []
    for epoch in range(64):  # the user stopped after 8 of these
        for i in range(0, 64, 16):
            opt.zero_grad()
            loss = F.mse_loss(model(blurred[i:i + 16]), sharp[i:i + 16])
            loss.backward()
            opt.step()
        with torch.no_grad():
            per_epoch.append(float(F.mse_loss(model(blurred), sharp)))
    at_8 = per_epoch[7]
    assert per_epoch[3] - at_8 > 0.1 * at_8, per_epoch[:8]  # still decreasing when the run stopped
    assert per_epoch[-1] < 0.5 * at_8, (at_8, per_epoch[-1])
    return (f"MSE after epochs 4/8: {per_epoch[3]:.4f}/{at_8:.4f} (still falling when the run stopped); "
            f"after 64 epochs: {per_epoch[-1]:.4f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny model: avoid thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
