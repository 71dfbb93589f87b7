import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_g_handbook_mulconstant_backward_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod):
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(5):
        for i in range(0, len(x), 64):
            opt.zero_grad()
            F.cross_entropy(model(x[i : i + 64]), y[i : i + 64]).backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        out = model(vx)
    return F.cross_entropy(out, vy).item(), (out.argmax(1) == vy).float().mean().item()


def _check() -> str:
    mod = _load()
    x = torch.randn(4, 3, dtype=torch.double, requires_grad=True)
    mod.MulConstant.apply(x, 20.0).sum().backward()
    grad = x.grad.mean().item()
    bug_loss, bug_acc = _train(mod)
    fixed = _load()
    fixed.MulConstant.apply = staticmethod(lambda h, c: h * c)  # the built-in multiplication
    ok_loss, ok_acc = _train(fixed)
    assert abs(grad - 1.0) < 1e-9, grad
    assert bug_loss > 2 * ok_loss and ok_acc - bug_acc > 0.1, (bug_loss, bug_acc, ok_loss, ok_acc)
    return (
        f"d(20*x)/dx from the Function = {grad:.0f}; after 5 epochs val loss {bug_loss:.2f} acc {bug_acc:.2f}, "
        f"with the built-in multiply {ok_loss:.2f} acc {ok_acc:.2f}"
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
