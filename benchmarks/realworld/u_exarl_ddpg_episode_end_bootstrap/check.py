"""Train the critic with the target's TD target and with a terminal-masked one; compare Q at episode ends."""

import importlib.util
from pathlib import Path

import torch
from torch import nn


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("u_exarl_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, mask_done, steps=250):
    t = mod.make_target()
    model = t["model"]
    (obs, act), (rew, nxt, done) = t["batch"]
    opt = t["optimizer"](model.parameters())
    for _ in range(steps):
        q = model(obs, act)
        if mask_done:
            with torch.no_grad():
                y = rew + mod.GAMMA * (1 - done) * model(nxt, mod.policy(nxt))
            loss = nn.functional.mse_loss(q, y)
        else:
            loss = t["loss_fn"](q, (rew, nxt, done))
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        q = model(obs, act)
    return q[done == 1].mean().item(), q[obs[:, 0] == 0].mean().item()


def _check() -> str:
    mod = _load()
    bad_last, bad_first = _train(mod, False)
    ok_last, ok_first = _train(mod, True)
    true_first = sum(mod.GAMMA ** k for k in range(mod.EP_LEN))
    assert bad_last > 3.0 and bad_first > 1.5 * true_first, (bad_last, bad_first, true_first)
    assert abs(ok_last - 1.0) < 0.5 and abs(ok_first - true_first) < 0.3 * true_first, (ok_last, ok_first)
    return (f"unmasked TD target: Q at last step of episode {bad_last:.1f} (true 1.0), Q at start {bad_first:.1f} "
            f"(true {true_first:.1f}) and climbing; with done mask: {ok_last:.2f} / {ok_first:.1f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
