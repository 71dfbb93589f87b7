"""Train the dual encoder with and without the final softmax; with it the CE loss is floored far above zero."""

import importlib.util
import math
from pathlib import Path

import torch
import torch.nn as nn

_spec = importlib.util.spec_from_file_location("y_noesis_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _run(final_softmax):
    torch.manual_seed(0)
    model = _t.DualEncoder(final_softmax)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    inputs, label = _t.make_data()
    losses = []
    for _ in range(150):
        opt.zero_grad()
        loss = loss_fn(model(inputs), label)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    vin, vlab = _t.make_data(512, seed=1)
    with torch.no_grad():
        return losses, _t.recall_at_1(model(vin), vlab)


def _check() -> str:
    losses, r1 = _run(True)
    losses_ok, r1_ok = _run(False)
    floor = math.log((math.e + _t.C - 1) / math.e)
    assert losses[-1] > floor - 1e-3 and losses[0] - losses[-1] < 1.0, (losses[0], losses[-1])
    assert losses_ok[-1] < 0.3 * losses[-1], (losses_ok[-1], losses[-1])
    assert r1_ok >= r1, (r1, r1_ok)
    return (f"softmax then CE: loss {losses[0]:.3f} -> {losses[-1]:.3f} (floor {floor:.3f}), val recall@1 {r1:.2f}; "
            f"raw logits: loss {losses_ok[0]:.3f} -> {losses_ok[-1]:.3f}, recall@1 {r1_ok:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
