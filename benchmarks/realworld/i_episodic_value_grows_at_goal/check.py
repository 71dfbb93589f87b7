"""TD targets that bootstrap through the episode end drive every value far below the worst possible return (-6)."""

import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_i_episodic_value_grows_at_goal_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, t, mask_done):
    torch.manual_seed(0)
    model = mod.ValueNet()
    opt = t["optimizer"](model.parameters())
    (s, s2), (r, d) = t["train_data"]
    for _ in range(150):
        for i in range(0, len(s), 64):
            v, v_next = model(s[i : i + 64], s2[i : i + 64])
            nd = (1 - d[i : i + 64]) if mask_done else 1.0
            target = r[i : i + 64] + mod.GAMMA * nd * v_next.detach()
            opt.zero_grad()
            F.mse_loss(v, target).backward()
            opt.step()
    with torch.no_grad():
        return model.net(torch.eye(mod.N_STATES)).squeeze(-1)


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    bad, good = _train(mod, t, False), _train(mod, t, True)
    assert good.min() > -7 and bad.max() < -15, (bad, good)
    return (
        f"values near the goal: {bad[-1]:.1f} bootstrapping through the episode end, {good[-1]:.1f} with the "
        f"terminal value zeroed; lowest value {bad.min():.1f} vs {good.min():.1f} (worst possible return -6)"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
