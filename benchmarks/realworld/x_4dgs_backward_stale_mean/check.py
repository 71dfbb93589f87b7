"""Compare the custom backward with autograd, then fit the points with it and with autograd's gradient."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("x_4dgs_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _autograd_project(mean, vel, t):
    cond = mean[None] + vel[None] * t[:, None, None]
    return cond[..., :2] / cond[..., 2:3]


def _fit(custom):
    tg = _t.make_target()
    model, (t, y) = tg["model"], tg["batch"]
    opt = tg["optimizer"](model.parameters())
    for _ in range(400):
        out = model(t) if custom else _autograd_project(model.mean, model.vel, t)
        loss = tg["loss_fn"](out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


def _check() -> str:
    tg = _t.make_target()
    model, (t, y) = tg["model"], tg["batch"]
    with torch.no_grad():
        model.vel.copy_(torch.randn(_t.N, 3, generator=torch.Generator().manual_seed(4)) * 0.8)
    grads = []
    for fn in (lambda: model(t), lambda: _autograd_project(model.mean, model.vel, t)):
        model.zero_grad()
        tg["loss_fn"](fn(), y).backward()
        grads.append(torch.cat([model.mean.grad.flatten(), model.vel.grad.flatten()]).clone())
    rel = ((grads[0] - grads[1]).norm() / grads[1].norm()).item()
    cos = torch.nn.functional.cosine_similarity(grads[0], grads[1], dim=0).item()
    loss_bug, loss_ok = _fit(True), _fit(False)
    assert rel > 0.2, rel
    assert loss_bug > 2.5 * loss_ok, (loss_bug, loss_ok)
    return (f"custom backward vs autograd: relative gradient error {rel:.2f} (cosine {cos:.2f}); after 400 Adam steps "
            f"reprojection loss {loss_bug:.4f} with the custom backward vs {loss_ok:.4f} with autograd")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
