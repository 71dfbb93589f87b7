import importlib.util
import pathlib

import torch
import torch.nn.functional as F

EPOCHS = 10
_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_l_tcnn_softplus_backward_wrong_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, reference):
    t = mod.make_target()
    model = t["model"]
    if reference:
        model.forward = lambda x: F.softplus(model.net(x), beta=mod.K_ACT).squeeze(-1)
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(EPOCHS):
        for i in range(0, len(x), 256):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 256]), y[i : i + 256]).backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        return t["loss_fn"](model(vx), vy).item()


def _check() -> str:
    mod = _load()
    z = torch.linspace(-0.5, 0.5, 11, dtype=torch.float64, requires_grad=True)
    mod.SoftplusOp.apply(z).sum().backward()
    g_custom = z.grad.clone()
    z.grad = None
    F.softplus(z, beta=mod.K_ACT).sum().backward()
    g_ref = z.grad.clone()
    fwd_err = (mod.SoftplusOp.apply(z) - F.softplus(z, beta=mod.K_ACT)).abs().max().item()
    grad_err = (g_custom - g_ref).abs().max().item()
    assert fwd_err < 1e-9 and grad_err > 1.0, (fwd_err, grad_err)
    bad, good = _train(mod, False), _train(mod, True)
    assert bad > 4 * good, (bad, good)
    return (
        f"forward matches softplus(beta=10) (max err {fwd_err:.0e}) but backward is off by up to {grad_err:.1f} "
        f"(d/dx at x=-0.5 is {g_custom[0].item():.1f}, should be {g_ref[0].item():.3f}); val MSE {bad:.3f} vs {good:.3f} with autograd softplus"
    )


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
