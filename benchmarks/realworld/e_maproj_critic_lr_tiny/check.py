"""Train the critic for the same number of updates at the configured learning rate and at 1e-2."""

import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_e_maproj_critic_lr_tiny_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(lr):
    mod = _load()
    t = mod.make_target()
    torch.manual_seed(0)
    model = mod.CentralCritic()
    opt = torch.optim.Adam(model.parameters(), lr=lr) if lr else t["optimizer"](model.parameters())
    x, y = t["train_data"]
    vx, vy = t["val_data"]
    with torch.no_grad():
        start = t["loss_fn"](model(vx), vy).item()
    for step in range(300):
        i = (step * 128) % len(x)
        opt.zero_grad()
        t["loss_fn"](model(x[i : i + 128]), y[i : i + 128]).backward()
        opt.step()
    with torch.no_grad():
        return start, t["loss_fn"](model(vx), vy).item()


def _check() -> str:
    s0, slow = _run(None)
    s1, fast = _run(1e-2)
    assert slow > 0.9 * s0, (s0, slow)
    assert fast < 0.3 * s1, (s1, fast)
    return f"300 critic updates: val MSE {s0:.2f} -> {slow:.2f} at the configured lr, {s1:.2f} -> {fast:.2f} at lr 1e-2"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
