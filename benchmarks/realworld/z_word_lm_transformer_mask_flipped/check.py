"""Does position t depend on token t+1? And can the LM beat log(V) on i.i.d. random tokens? Flipped vs correct mask."""

import importlib.util
import math
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_wordlm_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _run(flipped, steps=100):
    torch.manual_seed(0)
    model = _t.TransformerLM(flipped)
    g = torch.Generator().manual_seed(0)
    src, _ = _t.get_batch(g)
    with torch.no_grad():
        base = model(src)
        pert = src.clone()
        pert[5] = (pert[5] + 1) % _t.V
        future_effect = (model(pert)[4] - base[4]).abs().max().item()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(steps):
        src, tgt = _t.get_batch(g)
        opt.zero_grad()
        loss = _t.lm_loss(model(src), tgt)
        loss.backward()
        opt.step()
    src, tgt = _t.get_batch(torch.Generator().manual_seed(7))
    with torch.no_grad():
        held_out = _t.lm_loss(model(src), tgt).item()
    return future_effect, held_out


def _check() -> str:
    eff_bug, loss_bug = _run(True)
    eff_ok, loss_ok = _run(False)
    floor = math.log(_t.V)
    assert eff_bug > 1e-3 and eff_ok < 1e-6, (eff_bug, eff_ok)
    assert loss_bug < loss_ok - 0.1 and loss_ok > 0.97 * floor, (loss_bug, loss_ok, floor)
    return (f"flipped mask: output at t=4 moves by {eff_bug:.3f} when token 5 changes, held-out loss on i.i.d. tokens "
            f"{loss_bug:.2f} (log V = {floor:.2f} is the best honest loss); correct mask: {eff_ok:.0e}, loss {loss_ok:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
