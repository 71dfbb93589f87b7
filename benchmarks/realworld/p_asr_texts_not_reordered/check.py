"""Train on the collated batch (texts not reordered) vs the same batch with texts reordered; compare val accuracy."""

import importlib.util
from pathlib import Path

import torch
from torch import nn


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("p_asr_texts_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, x, y, vx, vy):
    torch.manual_seed(0)
    m = mod.Enc()
    opt = torch.optim.Adam(m.parameters(), lr=1e-2)
    for _ in range(80):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(m(x), y)
        loss.backward()
        opt.step()
    with torch.no_grad():
        return (m(vx).argmax(-1) == vy).float().mean().item(), loss.item()


def _check() -> str:
    mod = _load()
    x, y, lengths = mod.make_batch()
    vx, vy, _ = mod.make_batch(seed=1)
    feats, texts = mod.collate(x, y, lengths)
    idx = torch.argsort(lengths, descending=True)
    bad_acc, bad_loss = _train(mod, feats, texts, vx, vy)
    ok_acc, ok_loss = _train(mod, feats, y[idx], vx, vy)
    assert (texts != y[idx]).float().mean() > 0.5
    assert ok_acc > 0.9 and bad_acc < 0.45, (bad_acc, ok_acc)
    return f"val acc {bad_acc:.2f} with texts left unsorted vs {ok_acc:.2f} with texts reordered by the same indices"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
