"""On uniformly random tokens no causal model can beat log(vocab); this one does, and its position-t output moves with token t+1."""

import importlib.util
import math
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("o_globaltok_causal_target", p)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _check() -> str:
    m = _load()
    t = m.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    g = torch.Generator().manual_seed(1)
    for _ in range(90):
        ids = torch.randint(0, 32, (16, 24), generator=g)
        loss = loss_fn(model(ids), ids)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        ids = torch.randint(0, 32, (32, 24), generator=g)
        final = loss_fn(model(ids), ids).item()
        ids2 = ids.clone()
        ids2[:, 10] = (ids2[:, 10] + 1) % 32
        leak = (model(ids)[:, 5] - model(ids2)[:, 5]).abs().max().item()
    floor = math.log(32)
    assert final < floor - 0.3 and leak > 1e-3, (final, floor, leak)
    return (f"random tokens: held-out loss {final:.2f} vs log(32)={floor:.2f} floor for a causal model; "
            f"output at position 5 changes by {leak:.3f} when token 10 changes")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
