"""Train the target with its log(sigmoid) loss and with F.logsigmoid: the first hits inf loss and NaN weights within a
few SGD steps, the second stays finite."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _target():
    spec = importlib.util.spec_from_file_location("q_dynet_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, stable):
    t = mod.make_target()
    model = t["model"]
    x, y = t["train_data"]
    opt = t["optimizer"](model.parameters())
    losses = []
    for step in range(100):
        xb, yb = x[(step * 64) % 512:(step * 64) % 512 + 64], y[(step * 64) % 512:(step * 64) % 512 + 64]
        scores = model(xb)
        loss = -F.logsigmoid(scores.squeeze(-1) * yb).mean() if stable else t["loss_fn"](scores, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        if not all(torch.isfinite(p).all() for p in model.parameters()):
            return step, losses
    return None, losses


def _check() -> str:
    mod = _target()
    bad_step, bad_losses = _run(mod, stable=False)
    ok_step, ok_losses = _run(mod, stable=True)
    assert bad_step is not None and bad_step < 20 and bad_losses[-1] == float("inf"), (bad_step, bad_losses[-3:])
    assert ok_step is None and all(torch.isfinite(torch.tensor(ok_losses))), ok_losses[-3:]
    return (f"log(sigmoid(margin)): loss {bad_losses[0]:.3f} -> inf at step {bad_step}, weights NaN after it; "
            f"F.logsigmoid(margin): finite for 100 steps (last loss {ok_losses[-1]:.3f})")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
