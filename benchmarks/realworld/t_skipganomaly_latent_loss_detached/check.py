"""Gradient that the latent loss sends to the generator, and whether that loss ever goes down."""

import importlib.util
from pathlib import Path

import torch

_HERE = Path(__file__).resolve().parent


def _check() -> str:
    spec = importlib.util.spec_from_file_location("t_sgan_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    t = mod.make_target()
    G = t["model"]
    x, real = t["batch"]
    fake = G(x)
    _, fr = mod.netd(real)
    _, ff = mod.netd(fake.detach())
    lat = ((fr - ff) ** 2).mean()
    assert not lat.requires_grad and lat.grad_fn is None, "latent loss reaches G"
    # what the latent term would send to G without the detach
    _, ff2 = mod.netd(fake)
    g2 = torch.autograd.grad(((fr - ff2) ** 2).mean(), list(G.parameters()))
    norm_attached = torch.cat([g.flatten() for g in g2]).norm().item()
    opt = t["optimizer"](G.parameters())
    lats = []
    for _ in range(150):
        fake = G(x)
        loss = t["loss_fn"](fake, real)
        with torch.no_grad():
            lats.append(((mod.netd(real)[1] - mod.netd(fake)[1]) ** 2).mean().item())
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert norm_attached > 1e-3
    return (f"latent loss {lats[0]:.4f} -> {lats[-1]:.4f}; it has no grad_fn, so it sends no gradient to the generator "
            f"(would have norm {norm_attached:.4f} on fake without .detach())")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
