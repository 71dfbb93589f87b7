import importlib.util
import os

import torch


def _load(name):
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(name, os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load("rw_r_autoint_heads_view_split_target")
    t = mod.make_target()
    att = t["model"].att.eval()
    torch.manual_seed(1)
    x = torch.randn(8, 6, 16)
    perm = torch.tensor([3, 0, 5, 1, 4, 2])
    with torch.no_grad():
        out = att(x)
        out_perm = att(x[:, perm])
    # self-attention over fields without positions must be permutation-equivariant
    err = (out[:, perm] - out_perm).abs().max().item()
    # with a single head the same layer is equivariant
    one = mod.FieldAttention(16, 1).eval()
    with torch.no_grad():
        err1 = (one(x)[:, perm] - one(x[:, perm])).abs().max().item()
    assert err > 1e-2 and err1 < 1e-5, (err, err1)
    return f"reordering the fields changes each field's attention output by up to {err:.3f} with 4 heads (1 head: {err1:.1e})"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
