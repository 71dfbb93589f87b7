"""Train the target with the all-frames MSE vs an MSE masked to real frames; compare the error on real frames."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("y_tacotron2_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _masked(outputs, target, mask):
    m = mask[..., None]
    return sum(((o - target) ** 2 * m).sum() / (m.sum() * target.shape[-1]) for o in outputs)


def _train(masked):
    tg = _t.make_target()
    model = tg["model"]
    opt = tg["optimizer"](model.parameters())
    g = torch.Generator().manual_seed(1)
    logged = []
    for _ in range(400):
        (text, mask), mel = _t.make_batch(g)
        out = model((text, mask))
        loss = _masked(out, mel, mask) if masked else tg["loss_fn"](out, mel)
        opt.zero_grad()
        loss.backward()
        opt.step()
        logged.append(loss.item())
    (text, mask), mel = _t.make_batch(torch.Generator().manual_seed(99), n=256)
    with torch.no_grad():
        out = model((text, mask))
        real = _masked(out, mel, mask).item()
        pad = (((out[1] - mel) ** 2) * (1 - mask)[..., None]).sum().item() / ((1 - mask).sum().item() * _t.N_MELS)
    return sum(logged[-20:]) / 20, real, pad, float(mask.mean())


def _check() -> str:
    logged, real, pad, frac = _train(False)
    logged_ok, real_ok, _, _ = _train(True)
    assert frac < 0.8, frac
    assert real > 1.8 * real_ok, (real, real_ok)
    return (f"all-frames MSE ({frac:.0%} of frames real): logged loss {logged:.4f} but real-frame loss {real:.4f}, "
            f"padded-frame error {pad:.4f}; masked MSE: real-frame loss {real_ok:.4f} (logged {logged_ok:.4f})")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
