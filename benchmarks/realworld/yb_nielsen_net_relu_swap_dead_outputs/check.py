import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("yb_nielsen_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _sgd(mod, net, eta, steps=60):
    opt = torch.optim.SGD(net.parameters(), lr=eta)
    for step in range(steps):
        x, y = mod.make_digits(10, seed=100 + step)      # mini-batch size 10, as in the book
        opt.zero_grad()
        mod.quadratic_cost(net(x), y).backward()
        opt.step()
    vx, vy = mod.make_digits(200, seed=1)
    net.zero_grad()
    out = net(vx)
    mod.quadratic_cost(out, vy).backward()
    grad = sum(p.grad.abs().sum().item() for p in net.parameters())
    pre_out = net.layers[-1](mod.sigmoid(net.layers[0](vx)))
    dead = (pre_out <= 0).all(0).float().mean().item()
    acc = (out.argmax(1) == vy).float().mean().item()
    return out.detach(), grad, dead, acc, vy


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    out, grad, dead, acc, vy = _sgd(mod, t["model"], mod.ETA)
    assert out.abs().max().item() == 0.0          # every output unit is 0 for every image
    assert grad == 0.0 and dead == 1.0, (grad, dead)
    assert abs(acc - (vy == 0).float().mean().item()) < 1e-6   # argmax of all-zero rows is always class 0

    torch.manual_seed(0)
    twin = mod.Network()
    with torch.no_grad():
        for p in twin.parameters():
            p.mul_(0.1)
    _, tgrad, tdead, tacc, _ = _sgd(mod, twin, 0.05, steps=150)
    assert tdead < 1.0 and tgrad > 0 and tacc > acc + 0.2, (tdead, tgrad, tacc)
    return (f"ReLU swap, N(0,1) init, eta=3: all 10 output units dead on 200 val images, total grad {grad}, "
            f"val acc {acc:.3f} (= share of class 0); x0.1 init, eta=0.05: dead outputs {tdead:.1f}, val acc {tacc:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
