import importlib.util
import math
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xc_sjtu_lm_rnn_relu_nan_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    data = t["train_data"]
    losses, norms = [], []
    for i in range(40):
        x, y = data[i % len(data)]
        model.train()
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        norms.append(torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf")).item())
        opt.step()
        losses.append(loss.item())
    bad = next((i for i, v in enumerate(losses) if not math.isfinite(v) or v > 50.0), None)
    finite_norms = [v for v in norms if math.isfinite(v)]
    gmax = max(finite_norms)
    assert losses[0] < 6.0, losses[0]
    assert bad is not None, losses
    assert gmax > 100.0, gmax
    return (f"loss {losses[0]:.2f} at step 0 becomes {losses[bad]} at step {bad}; "
            f"gradient norm climbs from {norms[0]:.2f} to a peak of {gmax:.3g} (no error raised)")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
