import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wb_fastnlp_star_mask_polarity_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"].eval()
    (ids, mask), _ = t["batch"]
    n, width = ids.shape
    extra = 10
    ids_w = torch.cat([ids, torch.full((n, extra), mod.PAD)], 1)
    mask_w = torch.cat([mask, torch.zeros(n, extra, dtype=mask.dtype)], 1)
    # same real tokens, different real content: swap the real tokens of every row for new ones
    g = torch.Generator().manual_seed(11)
    ids_r = torch.where(mask.bool(), torch.randint(1, 50, ids.shape, generator=g), ids)
    with torch.no_grad():
        base = model(ids, mask)
        wide = model(ids_w, mask_w)
        other = model(ids_r, mask)
    pad_shift = (base - wide).abs().max().item()
    content_shift = (base - other).abs().max().item()
    scale = base.abs().max().item()
    assert pad_shift > 0.1 * scale, (pad_shift, scale)
    return (f"adding {extra} more pad positions moves the logits by up to {pad_shift:.3f} "
            f"(replacing every real token moves them by {content_shift:.3f}; logit scale {scale:.3f})")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
