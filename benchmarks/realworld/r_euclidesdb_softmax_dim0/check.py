"""Per-example outputs do not sum to one over classes and one example's prediction changes with its batch-mates."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("r_euclidesdb_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _check() -> str:
    t = _load().make_target()
    model, (x, _) = t["model"], t["batch"]
    model.eval()
    with torch.no_grad():
        p_full = model(x).exp()
        p_half = model(x[:4]).exp()
        p_one = model(x[:1]).exp()
    row_sums = p_full.sum(1)
    off = (row_sums - 1).abs().max().item()
    diff = (p_full[:4] - p_half).abs().max().item()
    assert off > 0.3, row_sums
    assert torch.allclose(p_one, torch.ones_like(p_one)), p_one
    assert diff > 0.05, diff
    return (f"row sums over classes range {row_sums.min():.2f}..{row_sums.max():.2f}; a lone example gets prob 1.0 "
            f"for every class; same 4 examples change by up to {diff:.2f} when batch-mates change")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
