"""Tokens of past frames change when later frames are appended: encoding frames 0..5 alone and as part of the 12-frame
clip gives different latents for frames 0..5, and a change to the last frame reaches the first frame's token.
Built with causal=True, both effects vanish."""

import importlib.util
from pathlib import Path

import torch


def _target():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("m_dreamer4_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _leaks(mod, model):
    clip = mod.make_clips(4, seed=50)
    model.eval()
    with torch.no_grad():
        full = model.encode(clip)
        prefix = model.encode(clip[:, :6])
        bumped = clip.clone()
        bumped[:, -1] += 1.0
        first = model.encode(bumped)[:, 0]
    return (full[:, :6] - prefix).abs().max().item(), (first - full[:, 0]).abs().max().item()


def _train(t, steps=40):
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    for i in range(steps):
        x, y = t["train_data"][i % len(t["train_data"])]
        opt.zero_grad()
        t["loss_fn"](model(x), y).backward()
        opt.step()
    return model


def _check() -> str:
    mod = _target()
    model = _train(mod.make_target())
    d_prefix, d_future = _leaks(mod, model)
    assert d_prefix > 1e-3 and d_future > 1e-3, (d_prefix, d_future)
    t2 = mod.make_target()
    for blk in list(t2["model"].enc) + list(t2["model"].dec):
        blk.attend = mod.get_attend_fn(causal=True)
    ok = _train(t2)
    p_ok, f_ok = _leaks(mod, ok)
    assert p_ok < 1e-5 and f_ok < 1e-5, (p_ok, f_ok)
    return (f"non-causal tokenizer: latents of frames 0-5 differ by {d_prefix:.3f} between the 6-frame prefix and the "
            f"full clip; bumping frame 11 moves frame 0's latent by {d_future:.3f}; causal=True: {p_ok:.1e} / {f_ok:.1e}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
