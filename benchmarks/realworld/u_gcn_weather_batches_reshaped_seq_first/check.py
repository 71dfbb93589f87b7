"""Train on the target's batches and on windows laid out with reshape-then-transpose; compare the forecast error."""

import importlib.util
from pathlib import Path

import torch
from torch import nn


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("u_gcn_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _good_batches(mod, data):
    n = (len(data) - 1) // (mod.SEQ * mod.BATCH)
    x = data[: n * mod.SEQ * mod.BATCH].reshape(n, mod.BATCH, mod.SEQ, mod.FEAT).transpose(1, 2)
    y = data[1: n * mod.SEQ * mod.BATCH + 1].reshape(n, mod.BATCH, mod.SEQ, mod.FEAT).transpose(1, 2)
    return list(zip(x, y))


def _train(mod, batches, epochs=15):
    torch.manual_seed(0)
    model = mod.Forecaster()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(epochs):
        for x, y in batches:
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad(); loss.backward(); opt.step()
    with torch.no_grad():
        return sum(nn.functional.mse_loss(model(x), y).item() for x, y in batches) / len(batches)


def _check() -> str:
    mod = _load()
    data = mod.weather_series()
    bad = mod.make_target()["train_data"]
    x0 = bad[0][0]
    step = (x0[1:] - x0[:-1]).abs().mean().item()
    true_step = (data[1:] - data[:-1]).abs().mean().item()
    bad_mse = _train(mod, bad)
    good_mse = _train(mod, _good_batches(mod, data))
    persistence = sum(nn.functional.mse_loss(x, y).item() for x, y in bad) / len(bad)
    assert bad_mse > 2 * good_mse and step > 2 * true_step, (bad_mse, good_mse, step, true_step)
    return (f"direct reshape to (seq, batch): consecutive 'time steps' are {mod.BATCH} samples apart "
            f"(mean jump {step:.2f} vs {true_step:.2f}); train MSE {bad_mse:.4f} vs {good_mse:.4f} with "
            f"reshape+transpose (persistence {persistence:.4f})")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
