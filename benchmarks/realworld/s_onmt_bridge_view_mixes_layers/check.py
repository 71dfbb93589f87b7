"""Example 0's output changes when only example 1's tokens change: the bridge view mixes batch rows."""
import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("s_onmt_target", p)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _check() -> str:
    t = _load().make_target()
    model, (src, _) = t["model"], t["batch"]
    model.eval()
    with torch.no_grad():
        base = model(src)[0]
        src2 = src.clone()
        src2[:, 1] = (src2[:, 1] + 7) % 30
        moved = model(src2)[0]
        alone = model(src[:, :1])[0]
    d_other = (base - moved).abs().max().item()
    d_alone = (base - alone).abs().max().item()
    assert d_other > 1e-4 and d_alone > 1e-4, (d_other, d_alone)
    return f"example 0 output moves by {d_other:.4f} when only example 1 changes, by {d_alone:.4f} when run alone"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
