"""Fit the value net on the target's GAE returns; the terminal state's value absorbs the next episode's value."""
import importlib.util
from pathlib import Path

import torch

_HERE = Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("s_sb_gae_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(mod, loss_fn, steps=200):
    t = mod.make_target()
    model, (obs, targets) = t["model"], t["batch"]
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(steps):
        loss = loss_fn(model(obs), targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        return model(obs[: mod.L]).squeeze(-1)


def _check() -> str:
    mod = _load()

    def correct_loss(values, targets):
        rewards, dones = targets
        v = values.detach().squeeze(-1)
        adv, last = torch.zeros(mod.T), 0.0
        for t in reversed(range(mod.T)):
            nonterminal = 1.0 - dones[t]
            delta = rewards[t] + mod.GAMMA * v[t + 1] * nonterminal - v[t]
            last = delta + mod.GAMMA * mod.LAM * nonterminal * last
            adv[t] = last
        return ((values[: mod.T].squeeze(-1) - (adv + v[: mod.T])) ** 2).mean()

    bad = _fit(mod, mod.value_loss)
    good = _fit(mod, correct_loss)
    assert bad[-1] > 3.0 and abs(good[-1] - 1.0) < 0.2, (bad.tolist(), good.tolist())
    assert bad[-2] < 1.5 and good[-2] > 1.8, (bad.tolist(), good.tolist())
    return (f"GAE masked with next step's done: V(last step)={bad[-1]:.2f} (true 1.00), V(step before)={bad[-2]:.2f} "
            f"(true ~1.99); correctly masked: {good[-1]:.2f} / {good[-2]:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
