import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_w_rlevo_gae_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _correct_gae(values, next_value, rewards, dones, gamma, lam):
    T = len(rewards)
    adv, last = torch.zeros(T), 0.0
    for t in reversed(range(T)):
        nonterminal = 1.0 - dones[t]
        nv = next_value if t == T - 1 else values[t + 1]
        delta = rewards[t] + gamma * nv * nonterminal - values[t]
        last = delta + gamma * lam * nonterminal * last
        adv[t] = last
    return adv


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    obs, target = t["batch"]
    rewards, dones, last_obs = target
    with torch.no_grad():
        values = model(obs)
        nv = model(last_obs)[0]
    bad = mod.compute_gae(values, nv, rewards, dones)
    good = _correct_gae(values, nv, rewards, dones, mod.GAMMA, mod.LAM)
    term = 4 + 5 * 5  # a terminal step in the middle of the buffer
    opt = torch.optim.Adam(model.parameters(), lr=5e-2)
    for _ in range(300):
        opt.zero_grad()
        loss_fn(model(obs), target).backward()
        opt.step()
    ref = mod.make_target()["model"]
    opt = torch.optim.Adam(ref.parameters(), lr=5e-2)
    for _ in range(300):
        with torch.no_grad():
            v, n = ref(obs), ref(last_obs)[0]
            ret = _correct_gae(v, n, rewards, dones, mod.GAMMA, mod.LAM) + v
        opt.zero_grad()
        ((ref(obs) - ret) ** 2).mean().backward()
        opt.step()
    with torch.no_grad():
        v3_bad, v3_ok = model(obs[3:4]).item(), ref(obs[3:4]).item()
    assert abs(bad[term] - good[term]) > 0.05, (bad[term].item(), good[term].item())
    assert v3_bad > -0.2 and v3_ok < -0.7, (v3_bad, v3_ok)
    return (f"advantage of the failing (terminal) step: {bad[term]:+.2f} (done read at t: {good[term]:+.2f}); "
            f"fitted value of the state right before failure: {v3_bad:+.2f} (done read at t: {v3_ok:+.2f})")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
