"""Token embeddings after ReduceDim: unit norm per token? independent of the other tokens in the clip?"""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_mmt_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _probe(fixed):
    torch.manual_seed(0)
    red = _t.ReduceDim(_t.EXPERT_DIM, _t.D, fixed)
    video, _ = _t.make_batch(torch.Generator().manual_seed(1))
    with torch.no_grad():
        norms = red(video).norm(dim=-1)
        tok0_full = red(video)[0, 0]
        tok0_half = red(video[:, : _t.TOK // 2])[0, 0]  # drop half of the clip's other tokens
    return norms, (tok0_full - tok0_half).abs().max().item()


def _check() -> str:
    norms_bug, drift_bug = _probe(False)
    norms_ok, drift_ok = _probe(True)
    assert (norms_bug - 1).abs().max() > 0.2, (norms_bug.min(), norms_bug.max())
    assert drift_bug > 1e-2, drift_bug
    assert torch.allclose(norms_ok, torch.ones_like(norms_ok), atol=1e-5) and drift_ok < 1e-6, drift_ok
    return (f"F.normalize default dim on (B, {_t.TOK}, D): token norms {norms_bug.min():.2f}..{norms_bug.max():.2f}, a token's "
            f"embedding changes by {drift_bug:.3f} when half the clip's tokens are dropped; dim=-1: norms 1.0, change {drift_ok:.0e}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
