"""Shows that Memory.reset(dones) with the 0/1 dones from the env zeroes the hidden state of envs 0 and 1 instead of
the envs that finished: a finished env keeps its memory into the next episode, env 0 never keeps any."""
import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("yc_rslrl_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _effect(model, obs, dones, env, t_from, t_to, t_probe):
    obs2 = obs.clone()
    obs2[t_from:t_to + 1, env] += 2.0
    with torch.no_grad():
        return (model(obs, dones)[t_probe, env] - model(obs2, dones)[t_probe, env]).abs().max().item()


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"].eval()
    (obs, dones), _ = t["batch"]
    # an env (not 0/1) whose episode ends at step t_end
    env, t_end = next((e, int(dones[:, e].nonzero()[0])) for e in range(2, mod.NUM_ENVS)
                      if dones[:, e].any() and int(dones[:, e].nonzero()[0]) < obs.shape[0] - 1)
    carry = _effect(model, obs, dones, env, 0, t_end, t_end + 1)          # previous episode -> next episode
    env0 = _effect(model, obs, dones, 0, 0, 2, 3)                         # env 0 never done before step 3?
    env0_done = bool(dones[:4, 0].any())
    orig = mod.Memory.reset

    def bool_reset(self, dones=None):
        return orig(self, dones.bool() if dones is not None else None)

    mod.Memory.reset = bool_reset
    try:
        carry_fix = _effect(model, obs, dones, env, 0, t_end, t_end + 1)
        env0_fix = _effect(model, obs, dones, 0, 0, 2, 3)
    finally:
        mod.Memory.reset = orig
    assert carry > 1e-3 and carry_fix < 1e-7, (carry, carry_fix)
    assert not env0_done and env0 < 1e-7 and env0_fix > 1e-3, (env0, env0_fix)
    return (f"env {env} finishes at step {t_end}: its action at step {t_end + 1} still moves by {carry:.3f} when the "
            f"finished episode's observations change (bool mask: {carry_fix:.1e}); env 0, not done, forgets its past "
            f"every step (effect of steps 0-2 on step 3: {env0:.1e}, bool mask: {env0_fix:.3f})")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
