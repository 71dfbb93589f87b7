import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_c_ethos_eval_dropout_active_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(150):
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()
    val = t["val_data"]
    torch.manual_seed(1)
    a = float(mod.estimate_loss(model, val))
    b = float(mod.estimate_loss(model, val))
    model.eval()
    c = float(mod.estimate_loss(model, val))
    d = float(mod.estimate_loss(model, val))
    assert abs(a - b) > 1e-3, (a, b)
    assert c == d and c < min(a, b), (a, b, c, d)
    return f"same checkpoint, same val set: loss {a:.3f} then {b:.3f}; with model.eval() {c:.3f} both times"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
