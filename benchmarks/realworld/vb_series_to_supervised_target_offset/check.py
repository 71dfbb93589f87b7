"""Shows the stalled loss with the offset target, and that the correctly aligned target is easy to fit."""
import importlib.util
from pathlib import Path

import torch
from torch import nn


def _load():
    spec = importlib.util.spec_from_file_location("vb_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(X, y, steps=150):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(X.shape[1], 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(X), y)
        loss.backward()
        opt.step()
    return loss.item()


def _run() -> str:
    mod = _load()
    X, y = mod.make_target()["train_data"]
    bad = _fit(X, y)
    sensors, load = mod.make_series()
    Xa = mod.series_to_supervised(sensors)
    ya = load[mod.N_LAG:].unsqueeze(1)
    good = _fit(Xa, ya)
    assert bad > 0.6 * y.var().item(), (bad, y.var().item())
    assert good < 0.1, good
    return (f"train MSE after 150 Adam steps: {bad:.3f} with the built target (target var {y.var().item():.2f}) "
            f"vs {good:.3f} when each window is paired with the next hour")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
