"""Overlap between the training indices and the official test indices, target data module vs mapped through the pool."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_rmd17_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _check() -> str:
    pool, _ = _t.official_split()
    tr_bug, va_bug, te = _t.prepare_splits(False)
    tr_ok, va_ok, te_ok = _t.prepare_splits(True)
    leak_bug = set(tr_bug.tolist()) & set(te.tolist())
    leak_val = set(va_bug.tolist()) & set(te.tolist())
    leak_ok = set(tr_ok.tolist()) & set(te_ok.tolist())
    in_pool = len(set(tr_bug.tolist()) & set(pool.tolist()))
    assert len(leak_bug) >= 1 and max(tr_bug.tolist()) < len(pool), (len(leak_bug), max(tr_bug.tolist()))
    assert len(leak_ok) == 0 and set(tr_ok.tolist()) <= set(pool.tolist())
    return (f"target split: {len(leak_bug)} test conformations also in train ({len(leak_val)} in val), train indices all "
            f"< {len(pool)} and only {in_pool}/{len(tr_bug)} from the official pool; mapped through the pool: "
            f"{len(leak_ok)} overlap")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
