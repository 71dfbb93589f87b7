"""Run the target's ViT: each query's attention weights don't sum to 1; each key's column does."""
import importlib.util
import os

import torch


def _load():
    p = os.path.join(os.path.dirname(os.path.abspath(__file__)), "target.py")
    s = importlib.util.spec_from_file_location("v_vit_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _check() -> str:
    t = _load().make_target()
    model, (x, _) = t["model"], t["batch"]
    model.eval()
    with torch.no_grad():
        model(x[:4])
        w = model.attn.last_weights                    # (B, N_query, N_key)
    row_sums = w.sum(-1)                               # per query: should all be 1
    col_sums = w.sum(-2)                               # per key: 1 here, i.e. normalised over queries
    assert (row_sums - 1).abs().max() > 0.2, row_sums
    assert (col_sums - 1).abs().max() < 1e-4, col_sums
    return (f"per-query attention sums range {row_sums.min():.2f}..{row_sums.max():.2f} (should be 1); "
            f"per-key sums are all 1.00 (normalised across queries)")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
