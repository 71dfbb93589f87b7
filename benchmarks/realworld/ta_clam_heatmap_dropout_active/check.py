import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ta_clam_heatmap_dropout_active_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, infer = t["model"], t["eval_fn"]
    feats, _ = t["batch"]
    torch.manual_seed(1)
    p1 = torch.softmax(infer(model, feats), 1)
    a1 = model.last_attention.clone()
    p2 = torch.softmax(infer(model, feats), 1)
    a2 = model.last_attention.clone()
    dp = (p1 - p2).abs().max().item()
    da = ((a1 - a2).abs().max() / a1.max()).item()
    assert dp > 1e-3 and da > 1e-2, (dp, da)
    return (f"scoring the same 4 slides twice: slide probabilities differ by up to {dp:.3f}, "
            f"patch attention by {100 * da:.0f}% of its peak")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
