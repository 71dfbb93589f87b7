"""Gradient norms through the deep plain MLP, and the normal term after training, against the same depth with skips."""

import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_e_igr_sdf_mlp_grad_vanishing_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class _Skip(torch.nn.Module):
    def __init__(self, base):
        super().__init__()
        self.base = base

    def forward(self, x):
        h = self.base.act(self.base.layers[0](x))
        for lin in self.base.layers[1:]:
            h = h + self.base.act(lin(h))
        return self.base.out(h).squeeze(-1)


def _normal_term(model, x, y):
    x = x.clone().requires_grad_(True)
    sdf = model(x)
    (g,) = torch.autograd.grad(sdf.sum(), x, create_graph=True)
    return (g[:, :3] - y[:, 1:]).norm(dim=1).mean(), g[:, :3].norm(dim=1).mean()


def _train(mod, model, t):
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
    x, y = t["train_data"]
    for step in range(40):
        i = (step * 256) % len(x)
        opt.zero_grad()
        nt, _ = _normal_term(model, x[i : i + 256], y[i : i + 256])
        loss = F.l1_loss(model(x[i : i + 256]), y[i : i + 256, 0]) + nt
        loss.backward()
        opt.step()
    vx, vy = t["val_data"]
    return _normal_term(model, vx, vy)


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    x, y = t["batch"]
    t["loss_fn"](model(x), y).backward()
    first = model.layers[0].weight.grad.norm().item()
    last = model.layers[-1].weight.grad.norm().item()
    plain_nt, plain_gn = _train(mod, model, t)
    torch.manual_seed(0)
    skip_nt, _ = _train(mod, _Skip(mod.SDFNet()), t)
    assert first < 1e-4 * last, (first, last)
    assert plain_gn < 1e-3 and plain_nt > 0.95, (plain_gn, plain_nt)
    assert skip_nt < 0.75 * plain_nt, (skip_nt, plain_nt)
    return (
        f"grad norm first layer {first:.1e} vs last {last:.1e}; after 40 steps |d sdf/d xyz| {plain_gn:.1e}, "
        f"normal term {plain_nt:.2f} (same depth with skip connections: {skip_nt:.2f})"
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
