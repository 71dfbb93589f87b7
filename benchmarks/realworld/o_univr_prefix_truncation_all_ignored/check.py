"""A batch whose masked prefix fills max_length has no supervised label left: loss NaN, gradients NaN."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("o_univr_allmasked_target", p)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _check() -> str:
    m = _load()
    t = m.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    ids, labels = t["batch"]
    n_valid = (labels[:, 1:] != m.IGNORE).sum().item()
    loss = loss_fn(model(ids), labels)
    loss.backward()
    grads = torch.cat([p.grad.flatten() for p in model.parameters() if p.grad is not None])
    useless = bool(torch.isnan(grads).any()) or grads.abs().max().item() == 0.0
    s_ids, s_labels = m.make_batch(3, prompt_len=20)
    short = loss_fn(model(s_ids), s_labels).item()
    assert n_valid == 0 and torch.isnan(loss) and useless and short == short, (n_valid, loss.item(), short)
    return f"long-prompt batch: {n_valid} supervised labels left after truncation, loss {loss.item()}, gradients carry no signal (NaN or all zero); short-prompt batch loss {short:.2f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
