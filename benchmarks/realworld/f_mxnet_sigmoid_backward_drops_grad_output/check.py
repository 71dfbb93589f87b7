"""The MLP trained with the hand-written sigmoid and with torch.sigmoid; gradcheck on the Function itself."""

import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_f_mxnet_sigmoid_backward_drops_grad_output_target",
                                                  _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, act, steps=300):
    torch.manual_seed(0)
    model = mod.MLP(act)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = mod.data(512, 2)
    for _ in range(steps):
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
    vx, vy = mod.data(512, 3)
    with torch.no_grad():
        return F.cross_entropy(model(x), y).item(), (model(vx).argmax(1) == vy).float().mean().item()


def _check() -> str:
    mod = _load()
    x = torch.randn(6, dtype=torch.double, requires_grad=True)
    grad_ok = torch.autograd.gradcheck(lambda t: mod.Sigmoid.apply(t) * 3.0, (x,), raise_exception=False)
    loss_bug, acc_bug = _train(mod, mod.Sigmoid.apply)
    loss_ok, acc_ok = _train(mod, torch.sigmoid)
    assert not grad_ok
    assert acc_bug < 0.75 and acc_ok > 0.9, (loss_bug, acc_bug, loss_ok, acc_ok)
    return (f"gradcheck fails; 300 steps: loss {loss_bug:.2f} / val acc {acc_bug:.2f} with the custom sigmoid, "
            f"{loss_ok:.2f} / {acc_ok:.2f} with torch.sigmoid")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
