"""Imports target.py: next-token logits of a short prompt run alone differ from the same prompt left-padded in a
batch with a longer one, because the real tokens attend to the pad positions."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("v_exllama_target", p)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _check() -> str:
    t = _load().make_target()
    model, (ids, _) = t["model"], t["batch"]
    model.eval()
    short = ids[0][ids[0] != 0].unsqueeze(0)
    with torch.no_grad():
        alone = model(short)[0, -1]
        padded = model(ids)[0, -1]
    diff = (alone - padded).abs().max().item()
    top_alone, top_padded = alone.argmax().item(), padded.argmax().item()
    assert diff > 0.05, diff
    return (
        f"last-token logits of a 5-token prompt: alone vs left-padded to 14 differ by up to {diff:.3f} "
        f"(argmax {top_alone} vs {top_padded})"
    )


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
