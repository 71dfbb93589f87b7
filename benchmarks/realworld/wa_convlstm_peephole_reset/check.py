import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wa_convlstm_peephole_reset_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    opt = t["optimizer"](model.parameters())
    names = [n for n, _ in model.named_parameters()]
    peephole_registered = any(n.split(".")[-1] in ("Wci", "Wcf", "Wco") for n in names)
    first = loss_fn(model(x), y).item()
    for _ in range(15):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
    last = loss.item()
    peep = [getattr(cell, w) for cell in model.cells for w in ("Wci", "Wcf", "Wco")]
    peep_abs = max(float(p.abs().max()) for p in peep)
    conv_moved = float((model.cells[0].Wxi.weight.grad is not None))
    assert not peephole_registered and peep_abs == 0.0, (peephole_registered, peep_abs)
    assert conv_moved == 1.0 and last < first
    return (f"loss {first:.4f}->{last:.4f} over 15 steps while the 6 peephole tensors are not in "
            f"model.parameters() and stay exactly 0 (max |w| = {peep_abs})")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
