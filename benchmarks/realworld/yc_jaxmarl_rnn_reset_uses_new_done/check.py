"""Shows that the Q-values at the first step of a new episode depend on the observations of the previous episode
(the hidden state is reset one step too early, on the terminal step, and carried into the next episode)."""
import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("yc_jaxmarl_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"].eval()
    (obs, dones), _ = t["batch"]
    b = 0
    t_end = int(dones[:, b].nonzero()[0])          # last step of the first episode in env 0
    t_start = t_end + 1                            # first step of the second episode
    obs2 = obs.clone()
    obs2[: t_end + 1, b] += 3.0 * torch.randn_like(obs2[: t_end + 1, b])   # change only the first episode
    first = torch.ones_like(dones[:1])
    last_dones = torch.cat([first, dones[:-1]])    # done of the previous step: True where a new episode begins
    with torch.no_grad():
        leak = (model(obs, dones)[t_start, b] - model(obs2, dones)[t_start, b]).abs().max().item()
        x, x2 = torch.relu(model.embed(obs)), torch.relu(model.embed(obs2))
        twin = (model.q(model.rnn(x, last_dones))[t_start, b] - model.q(model.rnn(x2, last_dones))[t_start, b]).abs().max().item()
    assert leak > 1e-3, leak
    assert twin < 1e-6, twin
    return (f"env 0: episode ends at step {t_end}; perturbing only that episode's observations moves the Q-values "
            f"at step {t_start} (first step of the next episode) by {leak:.3f}; resetting on the previous step's "
            f"done instead gives {twin:.1e}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
