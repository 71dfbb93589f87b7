import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xd_stego_cnn_few_images_overfit_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(t, steps):
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x_tr, y_tr = t["train_data"]
    x_va, y_va = t["val_data"]
    val_curve, tr_curve = [], []
    for s in range(steps):
        model.train()
        opt.zero_grad()
        loss = t["loss_fn"](model(x_tr), y_tr)
        loss.backward()
        opt.step()
        if s % 10 == 9:
            model.eval()
            with torch.no_grad():
                val_curve.append(F.cross_entropy(model(x_va), y_va).item())
                tr_curve.append(F.cross_entropy(model(x_tr), y_tr).item())
    model.eval()
    with torch.no_grad():
        va_acc = (model(x_va).argmax(1) == y_va).float().mean().item()
        tr_acc = (model(x_tr).argmax(1) == y_tr).float().mean().item()
    return tr_curve, val_curve, tr_acc, va_acc


def _run() -> str:
    t = _load().make_target()
    tr_curve, val_curve, tr_acc, va_acc = _train(t, 300)
    best = min(val_curve)
    assert tr_curve[-1] < 0.1 and tr_acc == 1.0, (tr_curve[-1], tr_acc)
    assert val_curve[-1] > best + 0.3 and val_curve[-1] > 0.9, (best, val_curve[-1])
    assert va_acc < 0.7, va_acc
    return (f"40 training patches: train loss {tr_curve[0]:.2f} -> {tr_curve[-1]:.3f} (acc {tr_acc:.2f}), "
            f"val loss min {best:.2f} -> {val_curve[-1]:.2f} (val acc {va_acc:.2f})")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
