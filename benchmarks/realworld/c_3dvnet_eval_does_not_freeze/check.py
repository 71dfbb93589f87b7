import torch
import torch.nn as nn
import torch.nn.functional as F


def _check() -> str:
    torch.manual_seed(0)
    backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
    head = nn.Conv2d(8, 1, 1)
    net = nn.Sequential(backbone, head)
    backbone.eval()  # the "freeze"
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    w0, h0 = backbone[0].weight.detach().clone(), head.weight.detach().clone()
    x = torch.randn(4, 3, 16, 16)
    target = torch.randn(4, 1, 16, 16)
    for _ in range(50):
        opt.zero_grad()
        F.mse_loss(net(x), target).backward()
        opt.step()
    moved = float((backbone[0].weight - w0).abs().mean())
    head_moved = float((head.weight - h0).abs().mean())
    assert moved > 0.2 * head_moved > 0, (moved, head_moved)
    return f"backbone in eval(): its conv weights moved {moved:.4f} per weight in 50 steps (head {head_moved:.4f})"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
