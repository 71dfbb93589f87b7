import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_gru4rec_eval_hidden_carry_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, eval_fn = t["model"], t["eval_fn"]
    batch = t["batch"]
    first = eval_fn(model, batch)
    second = eval_fn(model, batch)
    third = eval_fn(model, batch)
    d12 = (first - second).abs().max().item()
    d23 = (second - third).abs().max().item()
    assert d12 > 1e-3 and d23 > 1e-4, (d12, d23)
    return f"evaluating the same batch three times: scores differ by {d12:.3f} then {d23:.3f}"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
