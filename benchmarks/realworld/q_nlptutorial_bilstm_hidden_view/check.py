"""Example 0's logits change when only the other examples of the batch change."""

import importlib.util
from pathlib import Path

import torch


def _target():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("_t_bilstm_view", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _check() -> str:
    t = _target().make_target()
    model, (x, _) = t["model"].eval(), t["batch"]
    x2 = x.clone()
    g = torch.Generator().manual_seed(3)
    x2[1:] = torch.randint(0, 40, x2[1:].shape, generator=g)
    with torch.no_grad():
        a = model(x)[0]
        b = model(x2)[0]
        alone = model(x[:1])[0]
    d_batch = (a - b).abs().max().item()
    d_alone = (a - alone).abs().max().item()
    assert d_batch > 1e-4 and d_alone > 1e-4, (d_batch, d_alone)
    return (f"eval mode, example 0 unchanged: its logits move by {d_batch:.4f} when the other 7 rows change and by "
            f"{d_alone:.4f} when run alone")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
