import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("ya_gan_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _trace(mod, clear, steps=6):
    torch.manual_seed(0)
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model)
    w = model.discriminator.main[-2].weight
    seen = []
    real_step = opt.step

    def step(*a, **k):
        seen.append(w.grad.norm().item())
        return real_step(*a, **k)

    opt.step = step
    stale = []
    for _ in range(steps):
        stale.append(0.0 if w.grad is None else w.grad.norm().item())
        if clear:
            opt.zero_grad()
        t["train_step"](model, t["batch"], opt, t["loss_fn"])
    return seen, stale


def _run() -> str:
    mod = _load()
    g_bad, stale_bad = _trace(mod, clear=False)
    g_ok, stale_ok = _trace(mod, clear=True)
    assert stale_bad[0] == 0.0 and min(stale_bad[1:]) > 0, stale_bad
    assert g_bad[-1] > 3 * g_bad[0], g_bad
    assert max(g_ok) < 2 * g_ok[0], g_ok
    return (f"discriminator head grad norm seen by optimizer.step over 6 steps: "
            f"{', '.join(f'{v:.3f}' for v in g_bad)} (already {stale_bad[1]:.3f} before the 2nd backward); "
            f"zeroing before each step: {', '.join(f'{v:.3f}' for v in g_ok)}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
