import importlib.util
import math
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("va_flexflow_bert_unscaled_attn_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    ids, _ = t["batch"]
    attn = model.blocks[0]["attn"]
    with torch.no_grad():
        x = model.embed(ids) + model.pos
        b, n, d = x.shape
        q = attn.q(x).view(b, n, attn.heads, attn.kdim).transpose(1, 2)
        k = attn.k(x).view(b, n, attn.heads, attn.kdim).transpose(1, 2)
        raw = q @ k.transpose(-1, -2)
        p_raw = raw.softmax(-1)
        p_scaled = (raw / math.sqrt(attn.kdim)).softmax(-1)
    top_raw = p_raw.max(-1).values.mean().item()
    top_scaled = p_scaled.max(-1).values.mean().item()
    std_raw = raw.std().item()
    assert top_raw > 0.7 and top_raw > 2 * top_scaled, (top_raw, top_scaled)
    assert top_scaled < 0.4, top_scaled
    return (f"layer-0 attention logits std {std_raw:.1f}; mean max attention weight {top_raw:.3f} "
            f"(peaked) vs {top_scaled:.3f} with 1/sqrt({attn.kdim}) scaling")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
