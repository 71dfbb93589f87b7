"""Same SGD run with and without the trailing Softmax module: with it, the loss barely moves and accuracy lags."""

import importlib.util
from pathlib import Path

import torch
import torch.nn as nn

_spec = importlib.util.spec_from_file_location("y_minimini_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _run(softmax_layer):
    torch.manual_seed(0)
    model = _t.build_model(softmax_layer)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    x, y = _t.make_data()
    losses = []
    for _ in range(10):  # epochs
        for i in range(0, len(x), 100):
            opt.zero_grad()
            loss = loss_fn(model(x[i:i + 100]), y[i:i + 100])
            loss.backward()
            opt.step()
        losses.append(loss.item())
    xt, yt = _t.make_data(1000, seed=1)
    with torch.no_grad():
        return losses, _t.accuracy(model(xt), yt)


def _check() -> str:
    losses, acc = _run(True)
    losses_ok, acc_ok = _run(False)
    assert losses[-1] > 1.6 and losses[0] - losses[-1] < 0.6, losses
    assert losses_ok[-1] < 0.6 * losses[-1], (losses_ok[-1], losses[-1])
    assert acc_ok > acc + 0.1, (acc, acc_ok)
    return (f"Linear+Softmax with CE: loss {losses[0]:.3f} -> {losses[-1]:.3f} after 10 epochs, test acc {acc:.2f}; "
            f"logits to CE: loss {losses_ok[0]:.3f} -> {losses_ok[-1]:.3f}, test acc {acc_ok:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
