import importlib.util
import os

import torch


def _load(name):
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(name, os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load("rw_r_caml_label_attention_padding_target").make_target()
    model = t["model"].eval()
    ids, _ = t["batch"]
    doc = ids[3:4, :8]  # an 8-token note
    padded = torch.cat([doc, torch.zeros(1, 40, dtype=torch.long)], 1)
    with torch.no_grad():
        alone = torch.sigmoid(model(doc))
        batched = torch.sigmoid(model(padded))
    diff = (alone - batched).abs().max().item()
    assert diff > 0.02, diff
    return f"same 8-token note alone vs padded to 48 tokens: label probabilities differ by up to {diff:.3f}"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
