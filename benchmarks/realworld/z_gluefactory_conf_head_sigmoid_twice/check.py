"""Train the confidence head as shipped (sigmoid then BCEWithLogits) and with the sigmoid removed."""

import importlib.util
from pathlib import Path

import torch
import torch.nn as nn

_spec = importlib.util.spec_from_file_location("z_gf_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(fixed):
    tgt = _t.make_target()
    model = tgt["model"]
    if fixed:
        model.token = model.token[0]
    desc, final = tgt["batch"]
    opt = tgt["optimizer"](model.parameters())
    for _ in range(400):
        opt.zero_grad()
        loss = _t.loss_fn(model(desc), final)
        loss.backward()
        opt.step()
    with torch.no_grad():
        p = torch.sigmoid(model(desc))
    return loss.item(), p.min().item()


def _check() -> str:
    bad_loss, bad_pmin = _train(False)
    ok_loss, ok_pmin = _train(True)
    assert bad_pmin >= 0.5 and bad_loss > 0.5, (bad_loss, bad_pmin)
    assert ok_loss < 0.25 and ok_pmin < 0.1, (ok_loss, ok_pmin)
    return (f"sigmoid in head + BCEWithLogits: loss stuck at {bad_loss:.3f}, lowest probability seen by the loss "
            f"{bad_pmin:.3f}; raw logits: loss {ok_loss:.3f}, lowest probability {ok_pmin:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
