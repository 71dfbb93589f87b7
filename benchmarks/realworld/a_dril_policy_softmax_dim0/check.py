import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_dril_policy_softmax_dim0_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model = t["model"]
    (states,), _ = t["batch"]
    with torch.no_grad():
        probs = model(states)
        row_sums = probs.sum(dim=1)
        other = states.clone()
        other[1:] += 1.0
        shift = (model(other)[0] - probs[0]).abs().max().item()
    assert (row_sums - 1).abs().max().item() > 0.5, row_sums
    assert shift > 1e-4, shift
    return (f"per-state action probabilities sum to {row_sums.min().item():.3f}..{row_sums.max().item():.3f} "
            f"(not 1); state 0's probabilities move by {shift:.4f} when only the other states change")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
