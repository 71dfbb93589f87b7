import importlib.util
import math
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("va_fewshot_det_nan_lr_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, lr=None):
    t = mod.make_target()
    model = t["model"]
    if lr is None:
        opt = t["optimizer"](model.parameters())
    else:
        opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=mod.MOMENTUM, weight_decay=mod.DECAY * mod.BATCH_SIZE)
    losses = []
    for x, y in t["train_data"]:
        opt.zero_grad()
        loss = t["loss_fn"](model(x), y)
        losses.append(loss.item())
        if not math.isfinite(losses[-1]):
            break
        loss.backward()
        opt.step()
    return losses


def _run() -> str:
    mod = _load()
    torch.manual_seed(0)
    bad = _train(mod)
    first_bad = next((i for i, v in enumerate(bad) if not math.isfinite(v) or v > 1e6), None)
    assert first_bad is not None and first_bad < 40, bad[:10]
    torch.manual_seed(0)
    good = _train(mod, lr=mod.LEARNING_RATE / 10)
    assert all(math.isfinite(v) for v in good)
    assert sum(good[-5:]) / 5 < sum(good[:5]) / 5, (good[:5], good[-5:])
    return (f"lr={mod.LEARNING_RATE}, batch {mod.BATCH_SIZE}: loss {bad[0]:.1f} -> {bad[first_bad]:.3g} at iteration {first_bad}; "
            f"lr={mod.LEARNING_RATE / 10:g}: loss {sum(good[:5]) / 5:.1f} -> {sum(good[-5:]) / 5:.1f}, finite")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
