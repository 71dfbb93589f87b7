import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    spec = importlib.util.spec_from_file_location("vc_dl4j_linear_input_range_nan_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod

def _fit(mod, scale, steps=60):
    torch.manual_seed(0)
    x, y = mod.make_data(scale=scale)
    m = torch.nn.Linear(1, 1)
    opt = torch.optim.SGD(m.parameters(), lr=0.01, momentum=0.9, nesterov=True)
    for i in range(steps):
        idx = torch.randint(0, len(x), (16,))
        opt.zero_grad()
        F.mse_loss(m(x[idx]), y[idx]).backward()
        opt.step()
    return m.weight.item()


def _run():
    mod = _load()
    w_big = _fit(mod, 1.0)
    w_small = _fit(mod, 0.001)
    assert not (abs(w_big) < 1e6), w_big
    assert w_small == w_small and abs(w_small) < 1e3, w_small
    return f"x in [0, 999]: weight after 60 updates = {w_big}; x in [0, 1]: weight = {w_small:.3f} (finite)"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
