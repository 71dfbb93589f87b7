"""Self-contained: regression with many inputs and outputs (nonlinear ground truth), trained with MSE and plain SGD.
A stack of Linear layers without activations, a 2-layer ReLU net and an 11-layer plain (no residual, no
normalisation, He init) ReLU net are compared on TRAINING loss."""

import torch
import torch.nn as nn


def _net(kind, d_in, d_out, width=64):
    if kind == "linear_stack":
        return nn.Sequential(nn.Linear(d_in, d_in), nn.Linear(d_in, d_in), nn.Linear(d_in, d_out))
    depth = 2 if kind == "relu_2" else 11
    layers, d = [], d_in
    for _ in range(depth - 1):
        layers += [nn.Linear(d, width), nn.ReLU()]
        d = width
    net = nn.Sequential(*layers, nn.Linear(d, d_out))
    for m in net:
        if isinstance(m, nn.Linear):
            nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
            nn.init.zeros_(m.bias)
    return net


def _train(kind, x, y, lr, steps=400):
    torch.manual_seed(0)
    net = _net(kind, x.shape[1], y.shape[1])
    opt = torch.optim.SGD(net.parameters(), lr=lr)
    for step in range(steps):
        idx = torch.randint(0, len(x), (128,))
        opt.zero_grad()
        loss = ((net(x[idx]) - y[idx]) ** 2).mean()
        loss.backward()
        opt.step()
    with torch.no_grad():
        return ((net(x) - y) ** 2).mean().item()


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(2048, 8, generator=g)
    w1, w2 = torch.randn(8, 32, generator=g) / 8**0.5, torch.randn(32, 4, generator=g) / 4**0.5
    y = (x @ w1).abs() @ w2
    y = (y - y.mean(0)) / y.std(0)
    sol = torch.linalg.lstsq(torch.cat([x, torch.ones(len(x), 1)], 1), y).solution
    best_linear = ((torch.cat([x, torch.ones(len(x), 1)], 1) @ sol - y) ** 2).mean().item()
    lin = _train("linear_stack", x, y, lr=0.05)
    shallow = _train("relu_2", x, y, lr=0.05)
    deep = _train("relu_11", x, y, lr=0.05)
    assert lin > best_linear - 1e-3 and lin > 0.8, (lin, best_linear)
    assert deep > shallow + 0.02 and shallow < 0.5 * lin, (deep, shallow, lin)
    return (
        f"train MSE after 400 SGD steps: linear stack {lin:.3f} (least-squares floor {best_linear:.3f}), "
        f"2-layer ReLU {shallow:.3f}, 11-layer plain ReLU {deep:.3f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
