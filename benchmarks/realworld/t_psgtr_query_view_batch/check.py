"""bs=1 gives the same output as a transpose; with bs=4 an image's predictions depend on the other images."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("t_psgtr_target", Path(__file__).with_name("target.py"))
T = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(T)


def _check() -> str:
    torch.manual_seed(0)
    m = T.QueryHead()
    x, _ = T._data(4, 0)
    with torch.no_grad():
        single = torch.cat([m(x[i:i + 1]) for i in range(4)])
        batched = m(x)
        x2 = x.clone()
        x2[1:] = torch.randn(3, T.F)
        moved = (m(x2)[0] - batched[0]).abs().max().item()
    diff = (single - batched).abs().max().item()
    assert diff > 1e-2 and moved > 1e-2, (diff, moved)
    return f"bs=4 vs one image at a time: max logit difference {diff:.3f}; image 0 logits move {moved:.3f} when only images 1-3 change"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
