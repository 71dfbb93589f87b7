import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("td_asm_double_pad_mask_ones_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    torch.manual_seed(0)
    model = mod.AsmEncoder().eval()
    funcs, _ = mod.make_functions(6, seed=3)
    short = [5, 9, 14, 3, 27, 8]  # a short function
    long_ = list(range(1, 40))     # a long neighbour forces lots of padding

    alone = mod.collate([short])
    together = mod.collate([short, long_])
    # the collated mask claims every position of the short function is real
    ids0, mask0 = together["input_ids"][0], together["attention_mask"][0]
    n_pad = int((ids0 == mod.PAD_ID).sum())
    n_pad_seen = int(((ids0 == mod.PAD_ID) & (mask0 == 1)).sum())
    with torch.no_grad():
        e_alone = model.embed(alone["input_ids"], alone["attention_mask"])[0]
        e_together = model.embed(together["input_ids"], together["attention_mask"])[0]
    diff = (e_alone - e_together).abs().max().item()
    assert n_pad_seen > 20, (n_pad, n_pad_seen)
    assert diff > 1e-2, diff
    return (f"same function embedded alone vs. next to a 39-token function: embedding changes by {diff:.3f} "
            f"(max abs); {n_pad_seen} of its {n_pad} pad positions carry attention_mask=1")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
