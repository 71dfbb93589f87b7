"""Shows the dependency term is in the loss value but contributes no gradient: beta 0 and beta 5 give identical grads."""
import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("vb_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _grads(mod, beta):
    t = mod.make_target()
    model, (x, y) = t["model"], t["batch"]
    loss = mod.HierarchicalLoss(beta=beta)(model(x), y)
    loss.backward()
    return loss.item(), torch.cat([p.grad.flatten() for p in model.parameters()])


def _run() -> str:
    mod = _load()
    l0, g0 = _grads(mod, 0.0)
    l5, g5 = _grads(mod, 5.0)
    assert l5 > l0 + 1.0, (l0, l5)
    assert torch.equal(g0, g5), (g0 - g5).abs().max()
    t = mod.make_target()
    out = t["model"](t["batch"][0])
    d = mod.check_hierarchy(out[0].argmax(1), out[1].argmax(1))
    assert not d.requires_grad and d.sum() > 0
    return (f"loss {l0:.3f} at beta 0 vs {l5:.3f} at beta 5, yet parameter gradients are identical "
            f"(max diff {(g0 - g5).abs().max().item():.1e}); {int(d.sum())}/64 hierarchy violations, penalty tensor has no grad")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
