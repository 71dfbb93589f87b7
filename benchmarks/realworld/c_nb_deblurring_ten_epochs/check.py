import torch
import torch.nn as nn
import torch.nn.functional as F


def _check() -> str:
    torch.manual_seed(0)
    sharp = F.interpolate(torch.rand(64, 1, 4, 4), scale_factor=4)  # blocky scenes with sharp edges
    kernel = torch.ones(1, 1, 3, 3) / 9
    blurred = F.conv2d(sharp, kernel, padding=1)
    vs = F.interpolate(torch.rand(32, 1, 4, 4), scale_factor=4)
    vb = F.conv2d(vs, kernel, padding=1)
    net = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 3, padding=1))
    opt = torch.optim.Adam(net.parameters(), lr=5e-4)
    val = []
    for _ in range(60):  # epochs of 4 batches
        for i in range(0, 64, 16):
            opt.zero_grad()
            F.mse_loss(net(blurred[i : i + 16]) + blurred[i : i + 16], sharp[i : i + 16]).backward()
            opt.step()
        with torch.no_grad():
            val.append(float(F.mse_loss(net(vb) + vb, vs)))
    still_falling = all(b < a for a, b in zip(val[5:10], val[6:10], strict=False))
    assert still_falling and val[59] < 0.7 * val[9], (val[5:10], val[9], val[59])
    return (
        f"val MSE after 10 epochs {val[9]:.4f} and still falling every epoch; after 60 epochs "
        f"{val[59]:.4f} (blurred input {float(F.mse_loss(vb, vs)):.4f})"
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
