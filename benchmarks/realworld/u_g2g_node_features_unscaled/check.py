"""Train the Gaussian-embedding encoder on raw attributes vs the same attributes scaled to [0, 1]."""
import importlib.util
import math
import os

import torch

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load():
    spec = importlib.util.spec_from_file_location("u_g2g_target", os.path.join(_HERE, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, scale, lrs=(1.0, 1e-3, 1e-8), steps=40):
    results = {}
    for lr in lrs:
        t = mod.make_target()
        model, (x, trip), loss_fn = t["model"], t["batch"], t["loss_fn"]
        if scale:
            x = x / x.max()
        opt = torch.optim.Adam(model.parameters(), lr=lr)
        losses = []
        for _ in range(steps):
            opt.zero_grad()
            loss = loss_fn(model(x), trip)
            losses.append(loss.item())
            if not math.isfinite(loss.item()):
                break
            loss.backward()
            opt.step()
        results[lr] = losses
    return results


def _check() -> str:
    mod = _load()
    raw = _train(mod, scale=False)
    ok = _train(mod, scale=True, lrs=(1e-3,), steps=150)[1e-3]
    bad_lrs = [lr for lr, l in raw.items() if not math.isfinite(l[-1]) or not math.isfinite(l[0])]
    assert len(bad_lrs) == len(raw), {lr: l[:3] for lr, l in raw.items()}
    assert all(math.isfinite(v) for v in ok) and ok[-1] < 0.5 * ok[0], (ok[0], ok[-1])
    firsts = ", ".join(f"lr={lr:g}: {l[0]:.3g} -> {l[-1]:.3g} after {len(l)} steps" for lr, l in raw.items())
    return f"raw attributes (values ~1e3): loss non-finite at every lr ({firsts}); scaled to [0,1]: {ok[0]:.3g} -> {ok[-1]:.3g}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
