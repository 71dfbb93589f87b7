"""Shows the backbone gets gradients but never changes over training steps while the other parts do."""
import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("vb_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, (x, y) = t["model"], t["batch"]
    opt = t["optimizer"](model)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    for _ in range(5):
        opt.zero_grad()
        loss = t["loss_fn"](model(x), y)
        loss.backward()
        bb_grad = sum(p.grad.norm() ** 2 for p in model.backbone.parameters()).sqrt().item()
        opt.step()
    moved = {n: (p.detach() - before[n]).abs().max().item() for n, p in model.named_parameters()}
    bb = max(v for n, v in moved.items() if n.startswith("backbone."))
    rest = min(v for n, v in moved.items() if not n.startswith("backbone."))
    in_opt = {id(p) for g in opt.param_groups for p in g["params"]}
    missing = sum(1 for p in model.backbone.parameters() if id(p) not in in_opt)
    assert bb == 0.0 and bb_grad > 0 and rest > 0, (bb, bb_grad, rest)
    return (f"after 5 steps backbone max change {bb:.1e} despite grad norm {bb_grad:.3f}; every other tensor moved "
            f"(min change {rest:.1e}); {missing} backbone tensors absent from the optimizer's {len(opt.param_groups)} groups")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
