import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_p_unsupseg_convs_in_plain_list_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, (x, y), loss_fn = t["model"], t["batch"], t["loss_fn"]
    listed = [p for m in model.conv2 + model.bn2 for p in m.parameters()]
    registered = {id(p) for p in model.parameters()}
    n_missing = sum(p.numel() for p in listed if id(p) not in registered)
    n_reg = sum(p.numel() for p in model.parameters())
    before = [p.detach().clone() for p in listed]
    opt = t["optimizer"](model.parameters())
    for _ in range(30):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
    moved = max((a - p.detach()).abs().max().item() for a, p in zip(before, listed))
    got_grad = sum(p.grad is not None and p.grad.abs().sum().item() > 0 for p in listed)
    assert n_missing > 0 and moved == 0.0, (n_missing, moved)
    assert got_grad > 0  # gradients reach them, the optimizer just never sees them
    return (f"{n_missing} weights of the middle conv/BN layers are not in model.parameters() ({n_reg} registered); "
            f"they receive gradients but after 30 SGD steps moved by {moved}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
