import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_functional_dropout_always_on_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    torch.manual_seed(1)
    a = t["eval_fn"](t["model"], t["batch"])
    b = t["eval_fn"](t["model"], t["batch"])
    diff = float((a - b).abs().max())
    assert not t["model"].training and diff > 1e-4, diff
    return f"two eval-mode passes on the same batch differ by up to {diff:.4f} in the logits"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
