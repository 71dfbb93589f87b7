import importlib.util
import math
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_u_pixellink_lr_nan_after_20k_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(opt_factory, steps=60):
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = opt_factory(model.parameters()) if opt_factory else t["optimizer"](model.parameters())
    losses = []
    for i in range(steps):
        x, y = t["train_data"][i % len(t["train_data"])]
        loss = loss_fn(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def _check() -> str:
    bad = _train(None)
    good = _train(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, weight_decay=1e-4))
    tail_bad = bad[-10:]
    blew_up = any(not math.isfinite(v) for v in tail_bad) or min(tail_bad) > bad[0]
    assert blew_up and good[-1] < 0.5 * good[0], (bad[0], tail_bad, good[0], good[-1])
    return (f"lr=20: loss {bad[0]:.2f} -> last {[round(v, 2) for v in tail_bad[-3:]]}; "
            f"lr=0.1: loss {good[0]:.2f} -> {good[-1]:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
