import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_cubic_raw_inputs_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(mod, x, y, steps=500):
    torch.manual_seed(0)
    model = mod.Network()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(steps):
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    with torch.no_grad():
        return float(torch.nn.functional.mse_loss(model(x), y) / y.var())


def _check() -> str:
    mod = _load()
    x, y = mod.raw_data()
    rel_raw = _fit(mod, x, y)
    xn = (x - x.mean()) / x.std()
    yn = (y - y.mean()) / y.std()
    rel_norm = _fit(mod, xn, yn)
    assert rel_raw > 0.5 and rel_norm < 0.05, (rel_raw, rel_norm)
    return (f"after 500 Adam steps: MSE/var(y) = {rel_raw:.2f} on raw inputs/targets vs "
            f"{rel_norm:.3f} with standardized inputs and targets")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
