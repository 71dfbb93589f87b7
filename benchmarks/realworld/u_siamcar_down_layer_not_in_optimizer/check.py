"""self.down gets gradients every step but never changes: its parameters are in no optimizer param group."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("u_siamcar_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _check() -> str:
    t = _load().make_target()
    model, (inputs, y), loss_fn = t["model"], t["batch"], t["loss_fn"]
    opt = t["optimizer"](model)
    down0 = model.down.weight.detach().clone()
    head0 = model.car_head.cls.weight.detach().clone()
    losses, gnorm = [], 0.0
    for _ in range(15):
        loss = loss_fn(model(*inputs), y)
        opt.zero_grad()
        loss.backward()
        gnorm = max(gnorm, model.down.weight.grad.norm().item())
        opt.step()
        losses.append(loss.item())
    in_opt = {id(p) for g in opt.param_groups for p in g["params"]}
    missing = [n for n, p in model.named_parameters() if id(p) not in in_opt]
    d_down = (model.down.weight - down0).abs().max().item()
    d_head = (model.car_head.cls.weight - head0).abs().max().item()
    assert d_down == 0.0 and gnorm > 1e-3 and d_head > 1e-3, (d_down, gnorm, d_head)
    assert missing == ["down.weight", "down.bias"], missing
    return (f"down.weight grad norm up to {gnorm:.3f} but unchanged after 15 steps (head moved {d_head:.3f}); "
            f"params missing from the optimizer: {missing}; loss {losses[0]:.3f} -> {losses[-1]:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
