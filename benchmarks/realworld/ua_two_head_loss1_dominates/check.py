import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ua_two_head_loss1_dominates_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    x, (y1, y2) = t["batch"]
    shared = model.block1[0].weight

    out1, out2 = model(x)
    g1 = torch.autograd.grad(F.mse_loss(out1, y1), shared, retain_graph=True)[0]
    g2 = torch.autograd.grad(F.cross_entropy(out2, y2), shared)[0]
    ratio = (g2.norm() / g1.norm()).item()

    opt = t["optimizer"](model.parameters())
    with torch.no_grad():
        o1, o2 = model(x)
        l1_0, l2_0 = F.mse_loss(o1, y1).item(), F.cross_entropy(o2, y2).item()
    for _ in range(300):
        opt.zero_grad()
        t["loss_fn"](model(x), (y1, y2)).backward()
        opt.step()
    with torch.no_grad():
        o1, o2 = model(x)
        l1_1, l2_1 = F.mse_loss(o1, y1).item(), F.cross_entropy(o2, y2).item()

    assert ratio < 1e-3, ratio
    assert l1_1 < 0.5 * l1_0, (l1_0, l1_1)
    assert l2_1 > 0.9 * l2_0, (l2_0, l2_1)
    return (f"shared-layer grad norm loss_2/loss_1 = {ratio:.1e}; over 300 steps loss_1 {l1_0:.0f} -> {l1_1:.0f} "
            f"while loss_2 {l2_0:.3f} -> {l2_1:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
