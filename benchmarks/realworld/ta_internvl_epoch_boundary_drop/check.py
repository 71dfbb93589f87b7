import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ta_internvl_epoch_boundary_drop_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn, step = t["model"], t["loss_fn"], t["train_step"]
    opt = t["optimizer"](model.parameters())
    xtr, ytr = t["train_data"]
    xva, yva = t["val_data"]
    g = torch.Generator().manual_seed(0)
    per_epoch, val = [], []
    for _ in range(3):
        perm = torch.randperm(xtr.shape[0], generator=g)
        losses = [step(model, (xtr[perm[i:i + 16]], ytr[perm[i:i + 16]]), opt, loss_fn)
                  for i in range(0, xtr.shape[0], 16)]
        per_epoch.append(losses)
        model.eval()
        with torch.no_grad():
            val.append(loss_fn(model(xva), yva).item())
    end1 = sum(per_epoch[0][-2:]) / 2
    start2 = sum(per_epoch[1][:2]) / 2
    end2 = sum(per_epoch[1][-2:]) / 2
    start3 = sum(per_epoch[2][:2]) / 2
    assert start2 < 0.8 * end1 and start3 < 0.8 * end2, (end1, start2, end2, start3)
    assert val[-1] > val[0] - 0.05 and val[-1] > 2 * per_epoch[2][-1], (val, per_epoch[2][-1])
    return (f"train loss steps down at each epoch start ({end1:.2f}->{start2:.2f}, {end2:.2f}->{start3:.2f}) "
            f"while val loss goes {val[0]:.2f}->{val[-1]:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
