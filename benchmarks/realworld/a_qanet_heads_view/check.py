import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_qanet_heads_view_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model = t["model"].eval()
    (tokens,), _ = t["batch"]
    torch.manual_seed(1)
    with torch.no_grad():
        out_a = model(tokens)
        other = tokens.clone()
        other[1:] = torch.randint(1, 50, other[1:].shape)   # change every question except the first
        out_b = model(other)
    drift = (out_a[0] - out_b[0]).abs().max().item()
    assert drift > 1e-3, drift
    return f"start logits of question 0 move by {drift:.3f} when only the other questions in the batch change"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
