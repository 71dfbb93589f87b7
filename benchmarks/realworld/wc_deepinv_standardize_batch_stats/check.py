import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wc_deepinv_standardize_batch_stats_target",
                                                  os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    y, x = t["batch"]
    out = t["eval_fn"](t["model"], y)
    batched = mod.standardized_mse(out, x)
    single = torch.cat([mod.standardized_mse(out[i:i + 1], x[i:i + 1]) for i in range(len(x))])
    perm = torch.tensor([0, 1])
    sub = mod.standardized_mse(out[perm], x[perm])
    gap = (batched - single).abs().max().item()
    gap_sub = (sub - batched[perm]).abs().max().item()
    assert gap > 0.1, gap
    assert batched[0] > 5 * single[0], (batched[0], single[0])
    assert gap_sub > 0.05, gap_sub
    return (f"same fixed model, same images: per-image score batched vs one-at-a-time differs by up to {gap:.2f} "
            f"(e.g. image 0: {batched[0].item():.3f} vs {single[0].item():.3f}); a 2-image sub-batch shifts scores by "
            f"{gap_sub:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
