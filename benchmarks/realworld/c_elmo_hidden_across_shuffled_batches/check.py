import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    name = "rw_c_elmo_hidden_across_shuffled_batches_target"
    spec = importlib.util.spec_from_file_location(name, _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model = t["model"].eval()
    x, _ = t["batch"]
    other, _ = t["val_data"]
    with torch.no_grad():
        first = model(x)
        second = model(x)
        model(other[:8])
        third = model(x)
    d12 = float((first - second).abs().max())
    d23 = float((second - third).abs().max())
    assert d12 > 1e-3 and d23 > 1e-3, (d12, d23)
    return f"eval, no_grad, same batch: outputs differ by {d12:.3f} on the 2nd call, {d23:.3f} after another batch"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
