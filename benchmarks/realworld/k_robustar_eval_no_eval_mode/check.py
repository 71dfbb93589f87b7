import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_k_robustar_eval_no_eval_mode_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _acc(model, fn, data, bs=32):
    x, y = data
    hits = 0
    for i in range(0, len(x), bs):
        hits += (fn(model, (x[i : i + bs], y[i : i + bs])).argmax(1) == y[i : i + bs]).sum().item()
    return hits / len(x)


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    as_shipped = _acc(model, t["eval_fn"], t["val_data"])
    fresh = mod.make_target()["model"]  # reload: the pass above also overwrote the BN running stats
    fresh.eval()
    with_eval = _acc(fresh, t["eval_fn"], t["val_data"])
    train_acc_eval = _acc(fresh, t["eval_fn"], t["train_data"])
    assert as_shipped < 0.45 and with_eval > 0.9, (as_shipped, with_eval)
    return (
        f"test accuracy with the app's routine (train mode) {as_shipped:.2f} on 4 classes; "
        f"after model.eval() {with_eval:.2f} (train split {train_acc_eval:.2f})"
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
