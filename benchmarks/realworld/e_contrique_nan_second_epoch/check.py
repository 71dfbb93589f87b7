import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_e_contrique_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, lr):
    torch.manual_seed(0)
    model = mod.Encoder()
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    a, b = mod.two_views(1024, 1)
    epochs = []
    for _ in range(3):
        losses = []
        for i in range(0, 1024, 64):
            loss = mod.nt_xent(model((a[i : i + 64], b[i : i + 64])))
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        epochs.append(losses)
    return epochs


def _check() -> str:
    mod = _load()
    bug, ok = _run(mod, 0.035), _run(mod, 0.01)
    assert all(math.isfinite(v) for v in bug[0]), bug[0]
    first_nan = next(i for i, v in enumerate(bug[1]) if math.isnan(v))
    assert all(math.isnan(v) for v in bug[2])
    assert all(math.isfinite(v) for e in ok for v in e) and ok[-1][-1] < 0.5 * ok[0][0], ok
    return f"lr 0.035: epoch 1 finite (last {bug[0][-1]:.2f}), NaN from step {first_nan} of epoch 2; lr 0.01 ends at {ok[-1][-1]:.2f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
