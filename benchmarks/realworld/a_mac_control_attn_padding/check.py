import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_mac_control_attn_padding_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model = t["model"].eval()
    (question, lengths), _ = t["batch"]
    i = int(torch.argmin(lengths))
    q, n = question[i : i + 1], lengths[i : i + 1]
    with torch.no_grad():
        tight = model(q[:, : int(n)], n)
        padded = model(torch.cat([q, torch.zeros(1, 8, dtype=torch.long)], dim=1), n)
    diff = (tight - padded).abs().max().item()
    assert diff > 1e-4, diff
    return f"question of {int(n)} words: answer logits change by {diff:.4f} when padded to {q.size(1) + 8} positions"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
