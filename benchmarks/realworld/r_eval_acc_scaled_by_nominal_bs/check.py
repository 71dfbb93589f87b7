"""The epoch accuracy multiplies each batch mean by the nominal batch size; the short last batch is overcounted."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _target():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("r_acc_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _target()
    tg = t.make_target()
    model = tg["model"]
    x, y = tg["train_data"]
    vx, vy = tg["val_data"]
    opt = tg["optimizer"](model.parameters())
    g = torch.Generator().manual_seed(0)
    for epoch in range(15):
        perm = torch.randperm(x.shape[0], generator=g)
        for i in range(0, x.shape[0], t.BATCHSIZE):
            idx = perm[i:i + t.BATCHSIZE]
            loss = F.cross_entropy(model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        true_train = (model(x).argmax(1) == y).float().mean().item()
        true_val = (model(vx).argmax(1) == vy).float().mean().item()
    _, rep_train = t.evaluate(model, x, y)
    _, rep_val = t.evaluate(model, vx, vy)
    assert abs(rep_train - true_train) > 0.005 and abs(rep_val - true_val) > 0.005, (rep_train, true_train, rep_val, true_val)
    assert rep_train > 1.0 or rep_val > 1.0 or abs(rep_val - true_val) > 0.01, (rep_train, rep_val)
    return (
        f"reported train acc {rep_train:.4f} vs counted {true_train:.4f}; "
        f"reported val acc {rep_val:.4f} vs counted {true_val:.4f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
