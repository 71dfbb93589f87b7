import importlib.util
from pathlib import Path

import torch


def _target():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("_t_" + p.parent.name, p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m.make_target()

import torch.nn.functional as F


def _check() -> str:
    t = _target()
    single = t["loss_fn"](torch.tensor([[-100.0]]), torch.tensor([[0.0]]))
    stable = -(F.logsigmoid(torch.tensor([[100.0]])))  # log(1 - sigmoid(-100)) done stably
    assert torch.isnan(single) or torch.isinf(single), single
    assert torch.isfinite(stable).all()
    model, (x, y), loss_fn = t["model"], t["batch"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    first_bad = None
    for step in range(200):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        if not torch.isfinite(loss):
            first_bad = step
            break
        loss.backward()
        opt.step()
    assert first_bad is not None, "loss stayed finite"
    return f"single logit -100/target 0 -> loss {single.item()}; training loss non-finite at step {first_bad}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

