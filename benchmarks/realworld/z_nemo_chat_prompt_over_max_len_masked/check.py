"""Train on dialogues whose first prompt is longer than max_seq_length vs a max_seq_length that keeps the answers."""

import importlib.util
import math
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_nemo_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(max_len):
    tg = _t.make_target()
    model = tg["model"]
    opt = tg["optimizer"](model.parameters())
    ids, targets = _t.make_batch(max_seq_length=max_len)
    losses = []
    for _ in range(40):
        opt.zero_grad()
        loss = tg["loss_fn"](model(ids), targets)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    w_finite = all(torch.isfinite(p).all() for p in model.parameters())
    return losses, int(targets[1].sum()), w_finite


def _check() -> str:
    bad, n_bad, fin_bad = _train(32)
    good, n_good, fin_good = _train(64)
    assert n_bad == 0 and all(math.isnan(v) for v in bad), (n_bad, bad[:3])
    assert not fin_bad
    assert n_good > 0 and fin_good and good[-1] < 0.3 * good[0], (good[0], good[-1])
    return (f"max_seq_length 32 with 40-token prompts: {n_bad} loss-mask tokens, loss nan from step 1, weights nan; "
            f"max_seq_length 64: {n_good} answer tokens, loss {good[0]:.2f} -> {good[-1]:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
