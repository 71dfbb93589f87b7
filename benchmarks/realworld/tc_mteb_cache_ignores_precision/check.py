import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("tc_mteb_cache_ignores_precision_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    mod._EMBED_CACHE.clear()
    t = mod.make_target()
    model, ((q, d), y) = t["model"], t["batch"]
    model.eval()
    model.precision = "float32"
    s_float = t["eval_fn"](model, (q, d))
    model.precision = "int8"
    s_int8_cached = t["eval_fn"](model, (q, d))
    with torch.no_grad():
        s_int8_fresh = model(q) @ model(d).T
    fresh_gap = (s_int8_fresh - s_float).abs().max().item()
    cached_gap = (s_int8_cached - s_float).abs().max().item()
    mod._EMBED_CACHE.clear()
    assert fresh_gap > 1e-3, fresh_gap                 # int8 really changes the scores
    assert cached_gap == 0.0, cached_gap               # ...but the evaluated int8 run is the float run
    return (f"int8 evaluation returns the float32 scores exactly (max diff {cached_gap:.1e}) although a fresh "
            f"int8 encode differs by {fresh_gap:.4f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
