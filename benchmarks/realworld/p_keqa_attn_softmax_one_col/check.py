import importlib.util
from pathlib import Path

import torch


def _target():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("target_" + p.parent.name, p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m.make_target()


def _check() -> str:
    t = _target()
    model = t["model"]
    ids, y = t["batch"]
    opt = t["optimizer"](model.parameters())
    for _ in range(20):
        opt.zero_grad()
        t["loss_fn"](model(ids), y).backward()
        opt.step()
    model(ids)
    w = model.last_weights
    assert torch.all(w == 1.0), w
    g = model.attn.weight.grad
    assert g is None or g.abs().max() < 1e-6, g.abs().max()
    return f"attention weights over {w.shape[0]} positions all exactly 1.0 after 20 steps; attention layer gets no gradient"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

