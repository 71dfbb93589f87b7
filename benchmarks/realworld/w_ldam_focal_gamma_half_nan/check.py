"""Train the target with its gamma=0.5 focal loss until a sample is fit confidently; watch for NaN."""

import importlib.util
import math
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("w_ldam_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(gamma):
    tg = _t.make_target()
    model = tg["model"]
    loss_fn = _t.FocalLoss(gamma=gamma)
    opt = tg["optimizer"](model.parameters())
    x, y = tg["train_data"]
    losses = []
    for step in range(200):
        i = (step * 128) % 1024
        opt.zero_grad()
        loss = loss_fn(model(x[i:i + 128]), y[i:i + 128])
        loss.backward()
        opt.step()
        losses.append(loss.item())
        if math.isnan(losses[-1]):
            break
    params_nan = any(torch.isnan(p).any().item() for p in model.parameters())
    return losses, params_nan


def _check() -> str:
    bad, bad_nan = _train(0.5)
    ok, ok_nan = _train(2.0)
    first_nan = next(i for i, v in enumerate(bad) if math.isnan(v))
    assert bad_nan and first_nan > 2, (first_nan, bad[:5])
    assert not ok_nan and not any(math.isnan(v) for v in ok), ok[-3:]
    finite = [v for v in bad if not math.isnan(v)]
    return (f"gamma=0.5: loss {finite[0]:.3f} -> {finite[-1]:.4f}, then NaN at step {first_nan + 1} and NaN weights; "
            f"gamma=2: 200 steps finite, final loss {ok[-1]:.5f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
