import importlib.util
import os
import statistics

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ub_flowmc_coupling_flow_loss_jump_target",
                                                  os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _gnorm(model):
    return float(sum(p.grad.norm() ** 2 for p in model.parameters() if p.grad is not None) ** 0.5)


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn, step = t["model"], t["loss_fn"], t["train_step"]
    opt = t["optimizer"](model.parameters())
    batches = t["train_data"]
    vx, vy = t["val_data"]
    norms, curve = [], []
    for i, b in enumerate(batches):
        step(model, b, opt, loss_fn)
        norms.append(_gnorm(model))
        if i >= mod.STRAY_AT - 1:
            with torch.no_grad():
                curve.append(loss_fn(model(vx), vy).item())
    before, after = curve[0], max(curve[1:])
    spike = norms[mod.STRAY_AT]
    typical = statistics.median(norms[mod.STRAY_AT - 100:mod.STRAY_AT])
    # one batch with a few tail samples produces a gradient two orders of magnitude above normal ...
    assert spike > 50 * typical, (spike, typical)
    # ... and the unclipped update throws the flow far from where it was; it keeps getting worse for several steps
    assert after > 2.5 * before, (before, after)
    return (f"gradient norm {spike:.0f} on the stray-walker batch vs median {typical:.1f}; held-out NLL "
            f"{before:.2f} before that step, peaking at {after:.2f} over the next {len(curve) - 1} steps")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
