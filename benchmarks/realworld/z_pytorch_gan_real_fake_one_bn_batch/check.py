import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_pgan_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _score_shift(norm):
    tg = _t.make_target(norm)
    d, (x, y) = tg["model"], tg["batch"]
    opt = tg["optimizer"](d.parameters())
    for _ in range(50):
        opt.zero_grad()
        tg["loss_fn"](d(x), y).backward()
        opt.step()
    real, fake = x[y == 1], x[y == 0]
    probe = real[:4]
    with_fakes = d(torch.cat([probe, fake[:28]]))[:4]
    with_reals = d(torch.cat([probe, real[4:32]]))[:4]
    return (with_fakes - with_reals).abs().max().item()


def _check() -> str:
    bn = _score_shift("bn")
    gn = _score_shift("gn")
    assert bn > 0.5 and gn < 1e-5, (bn, gn)
    return (f"BatchNorm discriminator: the same 4 real samples get logits differing by up to {bn:.2f} depending on "
            f"whether the rest of the batch is fake or real; GroupNorm: {gn:.1e}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
