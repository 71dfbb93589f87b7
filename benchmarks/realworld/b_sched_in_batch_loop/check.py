import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_sched_in_batch_loop_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    torch.manual_seed(0)
    n = mod.BATCHES_PER_EPOCH
    losses = []
    for epoch in range(2):
        perm = torch.randperm(len(x))
        for i in range(n):
            idx = perm[(i * 12) % len(x):(i * 12) % len(x) + 12]
            losses.append(float(t["train_step"](model, (x[idx], y[idx]), opt, loss_fn).detach()))
    lr = opt.param_groups[0]["lr"]
    # after 2 epochs an epoch-based StepLR(10, 0.1) would still be at 0.05
    assert lr < 1e-6, lr
    return f"after 2 epochs ({2 * n} batches) the epoch-based StepLR has lr={lr:.1e} instead of 5.0e-02"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
