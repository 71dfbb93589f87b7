"""Train the target with labels built from a BOS-prefixed response vs the response tokenized without BOS."""

import importlib.util
import math
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("y_hades_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(add_bos):
    tg = _t.make_target()
    model = tg["model"]
    opt = tg["optimizer"](model.parameters())
    input_ids, labels = _t.make_batch(add_bos_to_response=add_bos)
    losses = []
    for _ in range(40):
        opt.zero_grad()
        loss = tg["loss_fn"](model(input_ids), labels)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    supervised = int((labels != _t.IGNORE).sum())
    return losses, supervised, model


def _check() -> str:
    bad, n_bad, model_bad = _train(True)
    good, n_good, _ = _train(False)
    assert n_bad == 0 and all(math.isnan(v) for v in bad), (n_bad, bad[:3])
    moved = (model_bad.head.weight - _t.make_target()["model"].head.weight).abs().max().item()
    assert not moved > 0, moved
    assert n_good > 0 and good[-1] < 0.1 * good[0], (n_good, good[0], good[-1])
    return (f"labels from BOS-prefixed response: {n_bad} supervised tokens, loss nan at every step, "
            f"weights never move; "
            f"response without BOS: {n_good} supervised tokens, loss {good[0]:.2f} -> {good[-1]:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
