"""Shows that the rewards-to-go keep accumulating across episode ends in the memory: the return at a terminal
step includes the rewards of the following episode."""
import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("yc_ppo_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _raw(mod, rewards, is_terminals, reset):
    out, g = [], 0.0
    for r, term in zip(reversed(rewards.tolist()), reversed(is_terminals.tolist())):
        if reset and term:
            g = 0.0
        g = r + mod.GAMMA * g
        out.insert(0, g)
    return torch.tensor(out)


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    states, (actions, rewards, is_terminals, old_lp) = t["batch"]
    term_idx = is_terminals.nonzero().flatten()
    first_end = int(term_idx[0])
    used = mod.monte_carlo_returns(rewards, is_terminals)
    no_reset = _raw(mod, rewards, is_terminals, reset=False)
    with_reset = _raw(mod, rewards, is_terminals, reset=True)
    expect = (no_reset - no_reset.mean()) / (no_reset.std() + 1e-5)
    assert torch.allclose(used, expect, atol=1e-5)       # the loss uses returns that never reset
    # returns at the terminal steps: should all be 1 (last reward only)
    bad = no_reset[term_idx[:-1]]
    assert (bad > 5).all(), bad
    assert torch.allclose(with_reset[term_idx], torch.ones(len(term_idx)))
    return (f"{len(term_idx)} episodes in memory; un-normalised return at the first terminal step (t={first_end}) is "
            f"{no_reset[first_end]:.2f} (should be 1.00); returns at the episode ends {[round(x, 1) for x in bad.tolist()]} "
            f"vs 1.0 each when the sum restarts at terminals")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
