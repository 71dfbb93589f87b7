"""Encode the same sentence twice with and without resetting the encoder state in between."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("y_inltk_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _encode_twice(reset):
    enc = _t.make_target()["model"].encoder.eval()
    sent = torch.tensor([[5, 17, 42, 8, 99, 3]])
    other = torch.tensor([[60, 61, 62, 63, 64, 65, 66, 67]])
    with torch.no_grad():
        if reset:
            enc.reset()
        a = enc(sent)[0].mean(0)
        enc(other)
        if reset:
            enc.reset()
        b = enc(sent)[0].mean(0)
    return (a - b).norm().item() / a.norm().item()


def _check() -> str:
    drift = _encode_twice(False)
    drift_ok = _encode_twice(True)
    again = _encode_twice(False)
    assert drift > 0.1 and abs(again - drift) < 1e-9, (drift, again)
    assert drift_ok < 1e-6, drift_ok
    return (f"same 6-token sentence encoded before and after another sentence: mean-pooled encoding changes by "
            f"{drift:.1%}; with encoder.reset() before each call: {drift_ok:.1e}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
