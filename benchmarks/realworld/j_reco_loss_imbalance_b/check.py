import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_j_reco_loss_imbalance_b_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, t, loss_fn):
    torch.manual_seed(0)
    model = mod.SegNet()
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(10):
        for i in range(0, len(x), 64):
            opt.zero_grad()
            loss_fn(model(x[i : i + 64]), y[i : i + 64]).backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        out = model(vx)
        return t["metric_fn"](out, vy), F.cross_entropy(out["logits"], vy).item()


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    torch.manual_seed(0)
    m0 = mod.SegNet()
    x, y = t["batch"]
    out = m0(x)
    sup0 = F.cross_entropy(out["logits"], y).item()
    ratio = (t["loss_fn"](out, y).item() - sup0) / sup0
    acc_both, sup_both = _run(mod, t, t["loss_fn"])
    acc_sup, sup_only = _run(mod, t, lambda o, yy: F.cross_entropy(o["logits"], yy))
    assert ratio > 20, ratio
    assert acc_sup > acc_both + 0.15, (acc_both, acc_sup)
    return (f"aux term {ratio:.0f}x the supervised loss at start; val accuracy {acc_both:.2f} (sup loss {sup_both:.2f}) "
            f"vs {acc_sup:.2f} (sup loss {sup_only:.2f}) with the supervised term alone")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
