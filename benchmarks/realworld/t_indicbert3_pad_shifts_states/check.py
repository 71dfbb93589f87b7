"""Encodes a short sequence alone and inside a right-padded batch; compares its real-token states."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("t_indicbert3_target", Path(__file__).with_name("target.py"))
T = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(T)


def _states(model, ids, mask):
    x = model.emb(ids) + model.pos(torch.arange(ids.shape[1]))[None]
    for layer in model.layers:
        x = layer(x, mask)
    return x


def _check() -> str:
    torch.manual_seed(0)
    model = T.make_target()["model"].eval()
    g = torch.Generator().manual_seed(3)
    short = torch.randint(1, T.VOCAB, (1, 5), generator=g)
    long = torch.randint(1, T.VOCAB, (1, 14), generator=g)
    with torch.no_grad():
        alone = _states(model, short, torch.ones_like(short))[0]
        ids = torch.zeros(2, 14, dtype=torch.long)
        ids[0, :5], ids[1] = short[0], long[0]
        mask = (ids != T.PAD).long()
        batched = _states(model, ids, mask)[0, :5]
    rms = alone.pow(2).mean().sqrt().item()
    diff = (alone - batched).pow(2).mean().sqrt().item()
    assert diff > 0.1 * rms, (diff, rms)
    return f"short sequence alone vs right-padded in a batch: real-token state change {diff:.3f} (state RMS {rms:.3f})"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
