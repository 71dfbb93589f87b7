"""Logits at real tokens change when only the padding token ids change: padding is attended."""
import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("s_minimindv_target", p)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _check() -> str:
    t = _load().make_target()
    model = t["model"].eval()
    inputs, labels = t["batch"]
    ids, mask = inputs["ids"], inputs["attention_mask"]
    with torch.no_grad():
        a = model(ids, attention_mask=mask)
        ids2 = ids.clone()
        ids2[mask == 0] = 7  # different filler at padded positions only
        b = model(ids2, attention_mask=mask)
        la, lb = t["loss_fn"](a, labels).item(), t["loss_fn"](b, labels).item()
    real = mask.bool()
    diff = (a - b).abs().amax(-1)[real].max().item()
    assert diff > 1e-3 and abs(la - lb) > 1e-4, (diff, la, lb)
    return f"changing only padding ids moves real-token logits by up to {diff:.3f}; loss {la:.4f} vs {lb:.4f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
