import copy
import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ua_fused_attn_cache_never_reset_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    fresh = copy.deepcopy(model)
    g = torch.Generator().manual_seed(1)
    prompt_a = torch.randint(0, mod.VOCAB, (1, 10), generator=g)
    prompt_b = torch.randint(0, mod.VOCAB, (1, 10), generator=g)

    t["eval_fn"](model, prompt_a)                 # first "generate" call
    after_a = t["eval_fn"](model, prompt_b)       # second call, different prompt
    alone = t["eval_fn"](fresh, prompt_b)         # same prompt on a freshly loaded model
    again = t["eval_fn"](fresh, prompt_b)         # and the same prompt once more
    d_prev = (after_a - alone).abs().max().item()
    d_repeat = (again - alone).abs().max().item()
    assert d_prev > 1e-2, d_prev
    assert d_repeat > 1e-2, d_repeat
    return (f"logits for prompt B differ by up to {d_prev:.3f} depending on the previous call, and by {d_repeat:.3f} "
            f"when B is simply repeated (cache position now {model.attn.start_pos})")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
