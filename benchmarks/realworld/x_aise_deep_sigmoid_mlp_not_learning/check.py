"""Train the four-layer sigmoid MLP and the same network with ReLU; compare first- vs last-layer gradient norms and
the training loss."""

import importlib.util
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("x_aise_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _run(act):
    torch.manual_seed(0)
    model = _t.mlp(act)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(1)
    ratio = None
    for step in range(300):
        x, y = _t.make_batch(g)
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        if step == 0:
            ratio = (model[0].weight.grad.norm() / model[-1].weight.grad.norm()).item()
        opt.step()
    x, y = _t.make_batch(torch.Generator().manual_seed(9), n=2048)
    with torch.no_grad():
        return F.mse_loss(model(x), y).item(), y.var().item(), ratio


def _check() -> str:
    loss_sig, var, ratio_sig = _run(nn.Sigmoid)
    loss_relu, _, ratio_relu = _run(nn.ReLU)
    assert loss_sig > 0.9 * var, (loss_sig, var)
    assert loss_relu < 0.6 * var, (loss_relu, var)
    assert ratio_sig < 0.01 and ratio_relu > 10 * ratio_sig, (ratio_sig, ratio_relu)
    return (f"sigmoid x4: loss {loss_sig:.3f} vs target variance {var:.3f}, first/last layer grad-norm ratio "
            f"{ratio_sig:.1e}; ReLU x4: loss {loss_relu:.3f}, ratio {ratio_relu:.1e}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
