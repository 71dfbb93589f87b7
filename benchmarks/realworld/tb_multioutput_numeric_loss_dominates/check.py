import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("tb_multioutput_numeric_loss_dominates_target",
                                                  os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _binary_val_acc(mod, use_combined_loss):
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    X, (yb, yn) = t["train_data"]
    Xv, (vb, _) = t["val_data"]
    opt = t["optimizer"](model.parameters())
    g = torch.Generator().manual_seed(0)
    for _ in range(300):
        i = torch.randint(0, X.size(0), (64,), generator=g)
        out = model(X[i])
        if use_combined_loss:
            loss = loss_fn(out, (yb[i], yn[i]))
        else:
            loss = F.binary_cross_entropy_with_logits(out["binary"], yb[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        return ((model(Xv)["binary"] > 0).float() == vb).float().mean().item()


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    x, (yb, yn) = t["batch"]
    out = model(x)
    l_bin = F.binary_cross_entropy_with_logits(out["binary"], yb)
    l_num = F.mse_loss(out["numeric"], yn)
    w = model.trunk[0].weight
    g_bin = torch.autograd.grad(l_bin, w, retain_graph=True)[0].norm().item()
    g_num = torch.autograd.grad(l_num, w)[0].norm().item()
    ratio = g_num / g_bin
    acc_joint = _binary_val_acc(mod, True)
    acc_alone = _binary_val_acc(mod, False)
    # with the numeric target standardised (or its loss down-weighted) the two gradients are within ~10x
    assert ratio > 100, ratio
    assert acc_alone - acc_joint > 0.15, (acc_alone, acc_joint)
    return (f"numeric MSE {l_num.item():.3g} vs BCE {l_bin.item():.2f}; trunk gradient ratio {ratio:.0f}x; "
            f"binary val acc {acc_joint:.2f} trained jointly vs {acc_alone:.2f} trained alone (300 steps)")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
