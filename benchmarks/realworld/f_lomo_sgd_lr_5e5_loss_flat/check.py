import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_f_lomo_sgd_lr_5e5_loss_flat_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(lr=None):
    mod = _load()
    t = mod.make_target()
    torch.manual_seed(0)
    model = mod.TinyTagger()
    opt = t["optimizer"](model.parameters()) if lr is None else torch.optim.SGD(model.parameters(), lr=lr)
    x, y = t["train_data"]
    first = last = None
    for _ in range(5):
        for i in range(0, len(x), 32):
            loss = t["loss_fn"](model(x[i : i + 32]), y[i : i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
            first = loss.item() if first is None else first
            last = loss.item()
    return first, last


def _check() -> str:
    f_bug, l_bug = _train()
    f_ok, l_ok = _train(lr=0.1)
    assert abs(f_bug - l_bug) / f_bug < 0.03, (f_bug, l_bug)
    assert l_ok < 0.5 * f_ok, (f_ok, l_ok)
    return f"320 SGD steps at lr 5e-5: loss {f_bug:.3f} -> {l_bug:.3f}; at lr 0.1: {f_ok:.3f} -> {l_ok:.3f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
