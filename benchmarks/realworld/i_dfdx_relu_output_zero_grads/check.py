"""The output ReLU clips every prediction to 0: all gradients are exactly zero and the loss freezes."""

import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_i_dfdx_relu_output_zero_grads_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model, (x, y) = t["model"], t["train_data"]
    opt = t["optimizer"](model.parameters())
    for i in range(len(x)):
        opt.zero_grad()
        t["loss_fn"](model(x[i : i + 1]), y[i : i + 1]).backward()
        opt.step()
    vx, vy = t["val_data"]
    opt.zero_grad()
    out = model(vx)
    loss = t["loss_fn"](out, vy)
    loss.backward()
    grad_sum = sum(p.grad.abs().sum().item() for p in model.parameters())
    zero_out = (out == 0).float().mean().item()
    assert grad_sum == 0.0 and zero_out == 1.0 and loss.item() > 0.9, (grad_sum, zero_out, loss.item())
    return (
        f"after 512 SGD steps: {zero_out:.0%} of predictions are 0.0, gradient sum {grad_sum}, loss {loss.item():.2f}"
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
