import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_l_handson_ppo_gae_no_dones_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _gae_with_dones(rewards, values, dones, gamma, lam):
    adv, gae, next_value = [], 0.0, 0.0
    for r, v, d in zip(reversed(rewards.tolist()), reversed(values.tolist()), reversed(dones.tolist())):
        if d:
            next_value, gae = 0.0, 0.0
        delta = r + gamma * next_value - v
        gae = delta + gamma * lam * gae
        adv.insert(0, gae)
        next_value = v
    return torch.tensor(adv)


def _check() -> str:
    mod = _load()
    obs, b = mod.rollout(1)
    # a critic that already knows "steps left" well: value of each state = discounted remaining reward
    values = _gae_with_dones(b["rewards"], torch.zeros(len(obs)), b["dones"], mod.GAMMA, 1.0)
    used = mod.compute_gae(b["rewards"], values)
    right = _gae_with_dones(b["rewards"], values, b["dones"], mod.GAMMA, mod.LAM)
    ends = b["dones"].nonzero().squeeze(1)[:-1]  # episode ends followed by another episode
    err_end = (used[ends] - right[ends]).abs().mean().item()
    err_all = (used - right).abs().max().item()
    # with a perfect critic the correct advantages are ~0 everywhere; the buffer-wide GAE gives the step
    # that ended the episode a large positive advantage (it bootstraps from the next episode's first state)
    assert right.abs().max().item() < 1e-4
    assert (used[ends] > 1.0).all(), used[ends]
    return (
        f"perfect critic: correct GAE max |adv| {right.abs().max().item():.1e}; GAE without dones gives the "
        f"{len(ends)} episode-ending steps advantage {used[ends].mean().item():.2f} on average (max error {err_all:.2f})"
    )


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
