import importlib.util
import math
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xc_tsgm_lstm_relu_loss_spike_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    opt = t["optimizer"](model.parameters())
    losses, norms = [], []
    for _ in range(30):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        norms.append(torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf")).item())
        opt.step()
        losses.append(loss.item())
    first = losses[0]
    peak = max(v for v in losses if math.isfinite(v))
    step = losses.index(peak)
    gmax = max(v for v in norms if math.isfinite(v))
    assert first < 2.0, first
    assert peak > 10.0, peak           # a sudden jump far above the ~1.39 chance-level loss
    assert gmax > 1e3, gmax            # gradient norm is ~1 at the start
    assert losses[-1] > 0.8, losses[-1]
    return (f"loss starts at {first:.2f}, jumps to {peak:.1f} at step {step}; gradient norm peaks at {gmax:.3g} "
            f"(step 0: {norms[0]:.2f}); loss after 30 steps {losses[-1]:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
