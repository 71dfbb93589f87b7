"""The XOR regressor with no hidden layer plateaus at MSE ~0.25 (predicting ~0.5 everywhere) on train and
val alike; the same data and training with one hidden layer fits XOR."""

import importlib.util
from pathlib import Path

import torch
from torch import nn

_spec = importlib.util.spec_from_file_location("vc_ml5_xor_target", Path(__file__).with_name("target.py"))
target = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(target)


class HiddenXorNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(2, 16)
        self.output = nn.Linear(16, 1)

    def forward(self, x):
        return torch.sigmoid(self.output(torch.tanh(self.hidden(x))))


def _train(model, t, epochs=1500):
    opt = t["optimizer"](model.parameters())
    loss_fn = t["loss_fn"]
    x, y = t["train_data"]
    xv, yv = t["val_data"]
    hist = []
    for ep in range(epochs):
        loss = loss_fn(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        hist.append(loss.item())
    with torch.no_grad():
        val = loss_fn(model(xv), yv).item()
        pred = model(target.CORNERS).squeeze(1)
    return hist, val, pred


def _check() -> str:
    t = target.make_target()
    hist, val, pred = _train(t["model"], t)
    torch.manual_seed(0)
    fixed_hist, fixed_val, fixed_pred = _train(HiddenXorNet(), t)

    # plateau near the constant-0.5 loss on both splits, no longer moving
    assert hist[-1] > 0.2 and val > 0.2, (hist[-1], val)
    assert abs(hist[-1] - val) < 0.03, (hist[-1], val)
    assert hist[-500] - hist[-1] < 0.005, (hist[-500], hist[-1])
    # it cannot separate the corners: every prediction stays near 0.5
    assert (pred - 0.5).abs().max() < 0.15, pred.tolist()
    # the twin with one hidden layer fits XOR on both splits
    assert fixed_hist[-1] < 0.02 and fixed_val < 0.03, (fixed_hist[-1], fixed_val)
    assert ((fixed_pred > 0.5).float() == target.LABELS.squeeze(1)).all(), fixed_pred.tolist()
    return (
        f"no hidden layer: train MSE {hist[0]:.3f} -> {hist[-500]:.3f} -> {hist[-1]:.3f}, val MSE {val:.3f}, "
        f"corner predictions {[round(p, 2) for p in pred.tolist()]}; one hidden layer (16 tanh), same data and SGD: "
        f"train {fixed_hist[-1]:.4f}, val {fixed_val:.4f}, corners {[round(p, 2) for p in fixed_pred.tolist()]}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
