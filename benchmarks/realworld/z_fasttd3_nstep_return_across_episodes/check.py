import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_ftd3_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _fit(mask):
    tg = _t.make_target()
    v, (s, b) = tg["model"], tg["batch"]
    opt = tg["optimizer"](v.parameters())
    for _ in range(300):
        opt.zero_grad()
        vals = v(s)
        tgt = _t.nstep_targets(*b, vals.detach(), mask_dones=mask)
        loss = ((vals[:-_t.N] - tgt[:-_t.N]) ** 2).mean()
        loss.backward()
        opt.step()
    return v(torch.arange(_t.S)).detach()


def _check() -> str:
    true = torch.tensor([_t.GAMMA ** (_t.L - 1 - t) for t in range(_t.S)])
    bad = _fit(False)
    good = _fit(True)
    assert bad[-1] > true[-1] + 0.3 and (good - true).abs().max() < 0.05, (bad, good)
    return (f"n-step without done masking: V(last step) {bad[-1]:.2f}, V(first) {bad[0]:.2f} vs true "
            f"{true[-1]:.2f}/{true[0]:.2f}; with masking {good[-1]:.2f}/{good[0]:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
