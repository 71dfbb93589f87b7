"""A tiny neck with learnable fusion weights, optimised from hand-picked parameter groups as in the diff."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Fuse(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.conv = nn.Sequential(nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c), nn.ReLU())
        self.fuse_w = nn.Parameter(torch.ones(2))

    def forward(self, high, low):
        w = torch.relu(self.fuse_w)
        w = w / (w.sum() + 1e-4)
        return self.conv(w[0] * low + w[1] * self.up(high))


class Net(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.stem_low = nn.Conv2d(1, c, 3, padding=1)
        self.stem_high = nn.Conv2d(1, c, 3, stride=2, padding=1)
        self.fuse = Fuse(c)
        self.head = nn.Conv2d(c, 1, 1)

    def forward(self, x):
        return self.head(self.fuse(self.stem_high(x), self.stem_low(x)))


def _grouped_sgd(model, lr):
    pg_bn, pg_w, pg_b = [], [], []
    for _, m in model.named_modules():
        if hasattr(m, "bias") and isinstance(m.bias, nn.Parameter):
            pg_b.append(m.bias)
        if isinstance(m, nn.BatchNorm2d):
            pg_bn.append(m.weight)
        elif hasattr(m, "weight") and isinstance(m.weight, nn.Parameter):
            pg_w.append(m.weight)
    opt = torch.optim.SGD(pg_bn, lr=lr, momentum=0.9, nesterov=True)
    opt.add_param_group({"params": pg_w, "weight_decay": 5e-4})
    opt.add_param_group({"params": pg_b})
    return opt


def _check() -> str:
    torch.manual_seed(0)
    model = Net()
    opt = _grouped_sgd(model, 0.05)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(16, 1, 8, 8, generator=g)
    y = (x > 0.5).float()
    head0 = model.head.weight.detach().clone()
    grads = []
    for _ in range(30):
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(model(x), y)
        loss.backward()
        grads.append(model.fuse.fuse_w.grad.abs().sum().item())
        opt.step()
    w = model.fuse.fuse_w.detach()
    assert torch.equal(w, torch.ones(2)), w
    assert min(grads) > 0, grads
    assert (model.head.weight.detach() - head0).abs().max() > 1e-3
    return f"30 SGD steps: fusion weights still {w.tolist()} although |grad| ~ {sum(grads) / len(grads):.2e}; other layers moved"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
