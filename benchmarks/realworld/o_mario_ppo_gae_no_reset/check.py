"""Compare the target's GAE with one that resets at done: the dying step's advantage is inflated by the next
life's rewards and even changes sign, so PPO pushes up the action that kills the agent."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("o_mario_ppo_gae_no_reset_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _gae_reset(mod, values, next_values, rewards, dones):
    gae = torch.zeros(())
    adv = torch.zeros_like(rewards)
    for t in reversed(range(len(rewards))):
        delta = rewards[t] + mod.GAMMA * next_values[t] * (1 - dones[t]) - values[t]
        gae = gae * mod.GAMMA * mod.TAU * (1 - dones[t]) + delta
        adv[t] = gae
    return adv


def _check() -> str:
    mod = _load()
    states, actions, rewards, dones, old_logp = mod.make_rollout()
    T = len(rewards)
    values = torch.zeros(T + 1)
    bad = mod.compute_gae(values[:-1], values[1:], rewards, dones)
    good = _gae_reset(mod, values[:-1], values[1:], rewards, dones)
    death = 15
    assert good[death] < -10 and bad[death] > 0, (bad[death].item(), good[death].item())
    assert (bad[:death + 1] - good[:death + 1]).abs().max() > 1.0
    out = mod.make_target()
    loss = out["loss_fn"](out["model"](out["batch"][0]), out["batch"][1])
    assert torch.isfinite(loss)
    return (f"advantage of the step that dies: {bad[death]:.2f} without gae reset vs {good[death]:.2f} with it; "
            f"return target there {bad[death]:.2f} vs {good[death]:.2f} (next life's rewards leak across done)")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
