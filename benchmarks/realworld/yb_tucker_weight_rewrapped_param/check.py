import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("yb_tucker_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(t, model, steps=60):
    x, y = t["batch"]
    opt = t["optimizer"](model.parameters())
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = t["loss_fn"](model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    factors = ["tucker_core", "tucker_U0", "tucker_U1", "tucker_U2"]
    before = {n: getattr(model, n).detach().clone() for n in factors}
    losses = _train(t, model)
    moved = max((getattr(model, n) - before[n]).abs().max().item() for n in factors)
    assert all(getattr(model, n).grad is None for n in factors)
    assert moved == 0.0, moved
    assert losses[-1] > 0.8 * losses[0], (losses[0], losses[-1])

    # healthy twin: use the reconstructed tensor directly (graph kept)
    torch.manual_seed(0)
    twin = mod.TuckerMultiHead()
    twin.forward = lambda x, m=twin: torch.einsum("bi,nio->bno", x, m.full_weight()) + m.bias
    tw = _train(t, twin)
    assert tw[-1] < 0.5 * tw[0], (tw[0], tw[-1])
    return (f"after 60 Adam steps the Tucker core/factors have grad None and moved {moved}; loss {losses[0]:.3f} -> "
            f"{losses[-1]:.3f} (graph-connected twin: {tw[0]:.3f} -> {tw[-1]:.3f})")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
