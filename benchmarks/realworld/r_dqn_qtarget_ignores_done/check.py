import importlib.util
import os

import torch


def _load(name):
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(name, os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load("rw_r_dqn_qtarget_ignores_done_target").make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    s, targets = t["batch"]
    a, r, s2, done = targets
    opt = t["optimizer"](model.parameters())
    for _ in range(400):
        opt.zero_grad()
        loss_fn(model(s), targets).backward()
        opt.step()
    with torch.no_grad():
        q_terminal = model(s).gather(1, a[:, None]).squeeze(1)[done.bool()].mean().item()
    # reward 1 and episode over: the right value of those transitions is exactly 1
    assert q_terminal > 3.0, q_terminal
    return f"after 400 updates Q of terminal transitions is {q_terminal:.2f} while their return is 1.0"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
