import importlib.util
import math
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wd_mha_missing_qk_scale_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"].eval()
    x, _ = t["batch"]
    attn_mod = model.attn
    with torch.no_grad():
        model(x)
    attn = attn_mod.last_attn
    # the logits the softmax actually saw, recovered up to a per-row constant
    logp = attn.clamp_min(1e-30).log()
    scores = logp - logp.mean(dim=-1, keepdim=True)
    row_max = attn.max(dim=-1).values.mean().item()
    uniform = 1.0 / x.size(1)
    score_std = scores.std().item()
    # the block's scores should have roughly unit spread at initialisation; these are ~sqrt(d_head) times wider
    assert score_std > 0.5 * math.sqrt(attn_mod.d_head), score_std
    assert row_max > 0.6, row_max
    return (f"at initialisation the attention logits have std {score_std:.1f} (d_head={attn_mod.d_head}); "
            f"mean largest attention weight per row is {row_max:.2f} vs {uniform:.3f} for uniform attention")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
