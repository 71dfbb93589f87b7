import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("ya_ppo_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(mod, fix, steps=150):
    torch.manual_seed(0)
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    obs, (a, lp, adv, ret) = t["batch"]
    if fix:
        ret = ret.view(-1, 1)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(steps):
        opt.zero_grad()
        loss_fn(model(obs), (a, lp, adv, ret)).backward()
        opt.step()
    with torch.no_grad():
        v = model(obs)[1].squeeze(-1)
    target = t["batch"][1][3].flatten()
    mse = ((v - target) ** 2).mean().item()
    corr = torch.corrcoef(torch.stack([v, target]))[0, 1].item()
    return mse, corr, v.std().item(), target.std().item()


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    obs, (a, lp, adv, ret) = t["batch"]
    values = t["model"](obs)[1]
    diff_shape = tuple((values - ret).shape)
    assert values.shape == (64, 1) and ret.shape == (1, 64) and diff_shape == (64, 64), (values.shape, ret.shape)
    mse_b, corr_b, std_b, std_t = _fit(mod, fix=False)
    mse_f, corr_f, _, _ = _fit(mod, fix=True)
    assert std_b < 0.2 * std_t and mse_b > 0.8 * std_t ** 2, (std_b, std_t, mse_b)
    assert mse_f < 0.1 * mse_b and corr_f > 0.9, (mse_f, corr_f)
    return (f"critic output {tuple(values.shape)} minus returns {tuple(ret.shape)} -> {diff_shape} value-loss matrix; "
            f"after 150 updates the critic's values have std {std_b:.3f} (returns std {std_t:.2f}), MSE to returns "
            f"{mse_b:.2f}, corr {corr_b:.2f}; with returns as a column the same run reaches MSE {mse_f:.3f}, corr {corr_f:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
