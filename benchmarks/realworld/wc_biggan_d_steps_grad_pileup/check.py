import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wc_biggan_d_steps_grad_pileup_target",
                                                  os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, batch = t["model"], t["batch"]
    opt = t["optimizer"](model.parameters())
    (z, x_real), _ = batch
    d_params = list(model.D.parameters())

    used, fresh = [], []
    orig_step = opt.step
    state = {"phase_d": True}

    def spy_step(*a, **k):
        if d_params[0].requires_grad and d_params[0].grad is not None:
            g_used = torch.cat([p.grad.flatten() for p in d_params]).clone()
            # the gradient of this step's loss alone, at the same parameters
            saved = [p.grad.clone() for p in d_params]
            for p in d_params:
                p.grad = None
            torch.manual_seed(1234)
            with torch.no_grad():
                fake = model.G(torch.randn_like(z))
            mod.d_hinge(model.D(x_real), model.D(fake)).backward()
            g_one = torch.cat([p.grad.flatten() for p in d_params]).clone()
            for p, s in zip(d_params, saved):
                p.grad = s
            used.append(g_used.norm().item())
            fresh.append(g_one.norm().item())
        return orig_step(*a, **k)

    opt.step = spy_step
    torch.manual_seed(1234)
    for _ in range(3):
        t["train_step"](model, batch, opt, t["loss_fn"])

    # D steps only (3 groups of D_STEPS); look at the last D step of each group
    D = mod.D_STEPS
    last = [used[i * D + D - 1] / fresh[i * D + D - 1] for i in range(3)]
    first = [used[i * D] / fresh[i * D] for i in range(3)]
    ratio = sum(last) / len(last)
    assert len(used) == 3 * D, len(used)
    assert ratio > 2.5, (ratio, last, first)
    return (f"D grad used by step {D} of each D-loop is {ratio:.1f}x the norm of that step's own gradient "
            f"(step 1: {sum(first)/3:.1f}x): earlier D steps' gradients are still in .grad")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
