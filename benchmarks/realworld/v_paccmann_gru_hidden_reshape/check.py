"""Imports target.py: the latent code of molecule 0 changes when only molecule 1 (or 3) of the batch changes,
and encoding molecule 0 alone gives a different code than encoding it inside the batch."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("v_paccmann_target", p)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _check() -> str:
    t = _load().make_target()
    model, (ids, _) = t["model"], t["batch"]
    model.eval()
    with torch.no_grad():
        z = model(ids)
        other = ids.clone()
        other[1:] = torch.randint(0, 30, other[1:].shape, generator=torch.Generator().manual_seed(5))
        z_other = model(other)
        z_alone = model(ids[:1])
    cross = (z[0] - z_other[0]).abs().max().item()
    alone = (z[0] - z_alone[0]).abs().max().item()
    assert cross > 1e-3 and alone > 1e-3, (cross, alone)
    return f"code of sample 0 moves by {cross:.3f} when only the other samples change; alone vs in batch differ by {alone:.3f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
