"""The same example, left-padded to two lengths: logits on its real tokens change with the pad count."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("u_automodel_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"].eval()
    ids, mask = t["batch"][0]["input_ids"], t["batch"][0]["attention_mask"]
    n_pad = int((ids == mod.PAD).sum())
    assert n_pad > 0 and bool((mask == 1).all()), "expected left padding with an all-ones mask"
    toks = mod.examples()[0]
    a_ids, a_mask, _ = mod.package([toks], seq_len=len(toks) + 2)
    b_ids, b_mask, _ = mod.package([toks], seq_len=len(toks) + 12)
    with torch.no_grad():
        la = model(a_ids, a_mask)[0, -len(toks):]
        lb = model(b_ids, b_mask)[0, -len(toks):]
        good_a = model(a_ids, (a_ids != mod.PAD).long())[0, -len(toks):]
        good_b = model(b_ids, (b_ids != mod.PAD).long())[0, -len(toks):]
    bad = (la - lb).abs().max().item()
    good = (good_a - good_b).abs().max().item()
    assert bad > 1e-2 and good < 1e-4, (bad, good)
    return (f"left padding, mask all ones ({n_pad} pad tokens in the batch attended): logits of the same example "
            f"differ by {bad:.3f} between 2 and 12 pads; with a real pad mask {good:.1e}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
