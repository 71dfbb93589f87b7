"""The same sequences give a different loss when padded to a longer length, because pads sit in the denominator."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("r_ibm_seq2seq_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    x, y = t["batch"]
    short_x, short_y = x[1:], y[1:]
    T = int((short_y != mod.PAD).sum(1).max()) + 1
    short_x, short_y = short_x[:, :T], short_y[:, :T]
    with torch.no_grad():
        tight = t["loss_fn"](model(short_x), short_y).item()
        padded = t["loss_fn"](model(x[1:]), y[1:]).item()
        true = torch.nn.functional.nll_loss(model(short_x).flatten(0, 1), short_y.flatten(),
                                            ignore_index=mod.PAD).item()
    pad_frac = (y[1:] == mod.PAD).float().mean().item()
    assert tight > 1.8 * padded, (tight, padded)
    assert abs(true - tight) > 0.1 and padded < 0.5 * true, (true, tight, padded)
    return (f"same 7 sequences: loss {tight:.3f} padded to length {T}, {padded:.3f} padded to length 20 "
            f"({pad_frac:.0%} pads); loss over real tokens only {true:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
