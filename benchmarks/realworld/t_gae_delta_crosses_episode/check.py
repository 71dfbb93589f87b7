"""The critic's value of the last state of an episode (true value 1.0: one reward, then the episode is over)."""

import importlib.util
from pathlib import Path

import torch

_HERE = Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("t_gae_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, fixed):
    t = mod.make_target()
    model = t["model"]
    obs, (rew, done) = t["batch"]
    opt = t["optimizer"](model.parameters())

    def fixed_returns(values, rewards, dones):
        v = values.detach()
        deltas = rewards + mod.GAMMA * (1.0 - dones) * v[1:] - v[:-1]
        adv = torch.zeros_like(rewards)
        gae = torch.zeros(())
        for k in reversed(range(rewards.shape[0])):
            gae = deltas[k] + mod.GAMMA * mod.LAM * (1.0 - dones[k]) * gae
            adv[k] = gae
        return adv + v[:-1]

    for _ in range(300):
        values = model(obs)
        ret = fixed_returns(values, rew, done) if fixed else mod.gae_returns(values, rew, done)
        loss = ((values[:-1] - ret) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        eye = torch.eye(mod.EP_LEN)
        return model(eye)


def _check() -> str:
    mod = _load()
    bad = _train(mod, fixed=False)
    good = _train(mod, fixed=True)
    assert abs(good[-1].item() - 1.0) < 0.2, good.tolist()
    assert bad[-1].item() > 3.0, bad.tolist()
    return (f"value of the terminal-step state: {bad[-1].item():.2f} as trained (true 1.00; with the bootstrap masked at "
            f"episode ends {good[-1].item():.2f}); start state {bad[0].item():.2f} vs {good[0].item():.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
