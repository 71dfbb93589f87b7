import importlib.util
from pathlib import Path

import torch


def _target():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("target_" + p.parent.name, p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m.make_target()


import torch.nn.functional as F


def _check() -> str:
    t = _target()
    model, (seq, y) = t["model"], t["batch"]
    logits = model(seq).detach()
    pad_pos = (y[:, 1:] == 0)
    frac = pad_pos.float().mean().item()
    bumped = logits.clone()
    bumped[:, :-1][pad_pos] += torch.randn(int(pad_pos.sum()), logits.shape[-1]) * 3
    l0, l1 = t["loss_fn"](logits, y).item(), t["loss_fn"](bumped, y).item()
    assert frac > 0.3 and abs(l1 - l0) > 0.1, (frac, l0, l1)
    m0 = F.cross_entropy(logits[:, :-1].transpose(1, 2), y[:, 1:], ignore_index=0).item()
    m1 = F.cross_entropy(bumped[:, :-1].transpose(1, 2), y[:, 1:], ignore_index=0).item()
    assert abs(m1 - m0) < 1e-5
    return f"{frac:.0%} of target positions are PAD and change the loss ({l0:.3f} -> {l1:.3f}); with ignore_index=0 they do not"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

