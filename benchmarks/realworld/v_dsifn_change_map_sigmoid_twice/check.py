import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_v_dsifn_change_map_sigmoid_twice_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, loss_fn):
    torch.manual_seed(0)
    model = mod.FusionNet()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    data = [mod.make_pairs(16, 10 + i) for i in range(8)]
    for epoch in range(5):
        for (t1, t2), m in data:
            opt.zero_grad()
            loss = loss_fn(model(t1, t2), m)
            loss.backward()
            opt.step()
    with torch.no_grad():
        losses = [loss_fn(model(t1, t2), m).item() for (t1, t2), m in data]
    return sum(losses) / len(losses)


def _check() -> str:
    mod = _load()
    bad = _train(mod, mod.change_loss)
    good = _train(mod, F.binary_cross_entropy)
    assert bad > 0.45 and good < 0.3 and bad > 2 * good, (bad, good)
    return f"train BCE after 5 epochs: {bad:.3f} with the loss as written vs {good:.3f} with plain BCE on the sigmoid output"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
