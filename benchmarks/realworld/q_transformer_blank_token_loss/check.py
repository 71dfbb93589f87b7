"""Train the target with its loss (padding counted) and with padding ignored: the first predicts <pad> on most real
positions early on while its loss already looks small, and lags far behind on the real tokens."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _target():
    spec = importlib.util.spec_from_file_location("q_blank_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, ignore_pad):
    t = mod.make_target()
    model = t["model"]
    x, y = t["train_data"]
    opt = t["optimizer"](model.parameters())
    log = {}
    for step in range(100):
        i = (step * 64) % len(x)
        logits = model(x[i:i + 64])
        if ignore_pad:
            loss = F.cross_entropy(logits.reshape(-1, mod.V), y[i:i + 64].reshape(-1), ignore_index=mod.PAD)
        else:
            loss = t["loss_fn"](logits, y[i:i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step in (15, 99):
            with torch.no_grad():
                pred = model(x[:128]).argmax(-1)
            xs, ys = x[:128], y[:128]
            real = xs != mod.PAD
            log[step] = (loss.item(), (pred[real] == mod.PAD).float().mean().item(),
                         (pred[real] == ys[real]).float().mean().item())
    return log


def _check() -> str:
    mod = _target()
    bad = _run(mod, ignore_pad=False)
    ok = _run(mod, ignore_pad=True)
    assert bad[15][1] > 0.5 and bad[15][0] < 0.8, bad
    assert ok[15][1] < 0.05, ok
    assert ok[99][2] > bad[99][2] + 0.15, (ok, bad)
    return (f"padding in the loss: step 15 loss {bad[15][0]:.2f}, {bad[15][1]:.0%} of real positions predicted <pad>; "
            f"real-token acc at step 100 {bad[99][2]:.2f}. Padding ignored: {ok[15][1]:.0%} <pad> on real positions, "
            f"real-token acc {ok[99][2]:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
