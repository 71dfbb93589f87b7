"""Train the target's dense ViT with the reshape unpatchify and with a permute-based one; the reshape one cannot fit a per-pixel task."""
import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F

_HERE = Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("s_tsvit_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, model, steps=150):
    x, y = mod.make_data(256, 2)
    xv, yv = mod.make_data(128, 3)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(5)
    for _ in range(steps):
        idx = torch.randint(0, 256, (32,), generator=g)
        loss = F.cross_entropy(model(x[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        return (model(xv).argmax(1) == yv).float().mean().item()


def _check() -> str:
    mod = _load()
    torch.manual_seed(0)
    bad = mod.TinyDenseViT()
    torch.manual_seed(0)
    good = mod.TinyDenseViT()

    def fixed_forward(x, m=good):
        b = x.shape[0]
        n1, P, H, W, C = m.np1d, mod.P, mod.H, mod.W, mod.N_CLS
        t = x.reshape(b, mod.C_IN, n1, P, n1, P).permute(0, 2, 4, 1, 3, 5).reshape(b, n1 * n1, -1)
        t = m.embed(t)
        t = t + m.mix(t)
        out = m.mlp_head(t.reshape(-1, t.shape[-1])).reshape(b, n1, n1, C, P, P)
        return out.permute(0, 3, 1, 4, 2, 5).reshape(b, C, H, W)

    good.forward = fixed_forward
    # the pixel (0, 2) output of the reshape version is driven by a pixel of a different patch
    x = torch.randn(1, mod.C_IN, mod.H, mod.W, requires_grad=True)
    bad(x)[0, :, 0, 2].sum().backward()
    src = x.grad.abs().sum(1)[0]
    own_patch = src[0:2, 2:4].sum().item()
    acc_bad = _train(mod, bad)
    acc_good = _train(mod, good)
    assert own_patch == 0.0, own_patch
    assert acc_bad < 0.75 and acc_good > 0.9, (acc_bad, acc_good)
    return (f"reshape unpatchify: output pixel (0,2) gets no gradient from its own patch; val pixel acc "
            f"{acc_bad:.2f} vs {acc_good:.2f} with permute-based unpatchify")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
