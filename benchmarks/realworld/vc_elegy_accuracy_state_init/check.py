import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    spec = importlib.util.spec_from_file_location("vc_elegy_accuracy_state_init_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod

def _run():
    t = _load().make_target()
    model, (x, y) = t["model"], t["batch"]
    with torch.no_grad():
        out = model(x)
    logged = t["metric_fn"](out, y)
    manual = (out.argmax(-1) == y).float().mean().item()
    assert abs(logged - manual) > 0.2, (logged, manual)
    return f"logged accuracy {logged:.3f} vs argmax accuracy {manual:.3f} on the same batch"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
