"""Train the target's LSTM (sigmoid output into BCEWithLogitsLoss) vs the same model returning logits."""

import importlib.util
from pathlib import Path

import torch
import torch.nn as nn

_spec = importlib.util.spec_from_file_location("w_sentiment_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(logits_model):
    tg = _t.make_target()
    model = tg["model"]
    if logits_model:
        model.sigmoid = nn.Identity()
    opt = tg["optimizer"](model.parameters())
    x, y = tg["train_data"]
    losses = []
    for _ in range(8):
        tot = 0.0
        for i in range(0, 512, 64):
            opt.zero_grad()
            loss = tg["loss_fn"](model(x[i:i + 64]), y[i:i + 64])
            loss.backward()
            opt.step()
            tot += loss.item()
        losses.append(tot / 8)
    xv, yv = tg["val_data"]
    with torch.no_grad():
        out = model(xv)
        acc = _t.binary_accuracy(torch.sigmoid(out) if logits_model else out, yv)
    return losses, acc


def _check() -> str:
    bad, bad_acc = _train(False)
    ok, ok_acc = _train(True)
    assert min(bad) > 0.45, bad  # floor: mean of -log(sigmoid(1)) and -log(1 - sigmoid(0))
    assert ok[-1] < 0.6 * bad[-1], (ok[-1], bad[-1])
    return (f"sigmoid output into BCEWithLogitsLoss: train loss {bad[0]:.3f} -> {bad[-1]:.3f} (floor ~0.50), "
            f"val acc {bad_acc:.2f}; logits into the same loss: {ok[0]:.3f} -> {ok[-1]:.3f}, val acc {ok_acc:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
