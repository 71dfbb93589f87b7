"""gradcheck the custom DWT; compare its gradient with autograd through the same forward ops."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("z_dwt_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _reference(x):
    w = torch.stack([_t.LO, _t.HI]).to(x.dtype).unsqueeze(1)
    return F.conv1d(F.pad(x, (1, 1), mode="circular"), w, stride=2)


def _check() -> str:
    x = torch.randn(1, 1, 12, dtype=torch.double, generator=torch.Generator().manual_seed(0), requires_grad=True)
    ok = torch.autograd.gradcheck(_t.DWT1D.apply, (x,), raise_exception=False)
    fwd_err = (_t.DWT1D.apply(x) - _reference(x)).abs().max().item()
    gout = torch.randn(1, 2, 6, dtype=torch.double, generator=torch.Generator().manual_seed(1))
    (g_custom,) = torch.autograd.grad(_t.DWT1D.apply(x), x, gout)
    (g_ref,) = torch.autograd.grad(_reference(x), x, gout)
    rel = ((g_custom - g_ref).norm() / g_ref.norm()).item()
    assert not ok and fwd_err < 1e-12, (ok, fwd_err)
    assert rel > 0.3, rel
    return (f"gradcheck(DWT1D) passes: {ok}; forward matches plain ops (max err {fwd_err:.1e}) but the custom "
            f"backward's input gradient differs from autograd's by {rel:.0%} (relative norm)")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
