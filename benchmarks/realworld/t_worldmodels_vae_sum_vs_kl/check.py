"""Train the VAE: the summed reconstruction term dwarfs the KL term, and KL drifts far from the prior."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("t_worldmodels_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, balanced):
    t = mod.make_target()
    model = t["model"]
    x, _ = t["train_data"]
    opt = t["optimizer"](model.parameters())
    d = x.shape[1]
    hist = []
    for step in range(200):
        xb = x[(step * 64) % 256:(step * 64) % 256 + 64]
        opt.zero_grad()
        out = model(xb)
        r, k = mod.recon_term(out, xb), mod.kl_term(out)
        loss = (r / d + k) if balanced else (r + k)
        loss.backward()
        opt.step()
        hist.append((r.item(), k.item()))
    return hist


def _check() -> str:
    torch.manual_seed(0)
    mod = _load()
    bad = _train(mod, balanced=False)
    ok = _train(mod, balanced=True)
    r0, k0 = bad[0]
    r1, k1 = bad[-1]
    assert r0 / max(k0, 1e-6) > 100, (r0, k0)
    assert r1 < r0 / 2 and k1 > 10 * max(k0, 0.05), (r0, r1, k0, k1)
    assert ok[-1][1] < k1 / 5, (ok[-1], k1)
    return (
        f"pixel-sum recon {r0:.1f} -> {r1:.1f} while latent-mean KL {k0:.3f} -> {k1:.2f} "
        f"(recon/KL {r0 / max(k0, 1e-6):.0f}x at start); with both terms per-element, KL ends at {ok[-1][1]:.3f}"
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
