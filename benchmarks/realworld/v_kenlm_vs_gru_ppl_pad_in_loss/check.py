import importlib.util
import math
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_v_kenlm_vs_gru_ppl_pad_in_loss_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    for epoch in range(4):
        for x, y in t["train_data"]:
            opt.zero_grad()
            t["loss_fn"](model(x), y).backward()
            opt.step()
    (xv, yv), = t["val_data"]
    with torch.no_grad():
        logits = model(xv)
        ppl_reported = math.exp(t["loss_fn"](logits, yv).item())
        ppl_words = math.exp(F.cross_entropy(logits.reshape(-1, mod.V), yv.reshape(-1), ignore_index=mod.PAD).item())
    pad_frac = (yv == mod.PAD).float().mean().item()
    assert pad_frac > 0.4 and ppl_reported < 0.3 * ppl_words, (pad_frac, ppl_reported, ppl_words)
    return (
        f"{pad_frac:.0%} of target positions are padding; validation perplexity {ppl_reported:.1f} as trained/reported "
        f"vs {ppl_words:.1f} over real tokens only (uniform guess would be {mod.V - 1})"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
