"""The client MLP trained with the configured learning rate, then with a 100x smaller one."""

import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_f_pfedme_train_loss_nan_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, lr):
    t = mod.make_target()
    torch.manual_seed(0)
    model = mod.make_net()
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x, y = t["train_data"]
    losses = []
    for _ in range(5):
        for i in range(0, len(x), 20):
            opt.zero_grad()
            loss = t["loss_fn"](model(x[i : i + 20]), y[i : i + 20])
            loss.backward()
            opt.step()
        losses.append(loss.item())
    vx, vy = t["val_data"]
    with torch.no_grad():
        return losses, t["metric_fn"](model(vx), vy)


def _check() -> str:
    mod = _load()
    bad, acc_bad = _run(mod, mod.LR)
    good, acc_good = _run(mod, mod.LR / 100)
    assert not math.isfinite(bad[-1]) and acc_bad < 0.2, (bad, acc_bad)
    assert all(math.isfinite(v) for v in good) and acc_good > 0.9, (good, acc_good)
    return (f"lr {mod.LR}: loss per epoch {[round(v, 3) for v in bad]}, val acc {acc_bad:.2f}; "
            f"lr {mod.LR / 100}: final loss {good[-1]:.3f}, val acc {acc_good:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
