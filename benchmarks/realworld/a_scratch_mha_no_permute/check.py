import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_scratch_mha_no_permute_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model = t["model"].eval()
    (tokens,), _ = t["batch"]
    torch.manual_seed(1)
    perm = torch.randperm(tokens.size(1))
    with torch.no_grad():
        out = model(tokens)
        out_perm = model(tokens[:, perm])
    # without positional encoding, a correct encoder is permutation-equivariant
    gap = (out[:, perm] - out_perm).abs().max().item()
    assert gap > 1e-2, gap
    return f"permuting the input tokens changes the per-token outputs by up to {gap:.3f} (should only reorder them)"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
