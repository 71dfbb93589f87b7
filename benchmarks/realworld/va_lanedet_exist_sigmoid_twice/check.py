import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    spec = importlib.util.spec_from_file_location("va_lanedet_exist_sigmoid_twice_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _logits(model, x):
    h = model.exist
    f = h.pool(torch.relu(h.conv(model.backbone(x)))).flatten(1)
    return h.fc10(torch.relu(h.fc9(f)))


def _fit(mod, healthy):
    t = mod.make_target()
    model = t["model"]
    x, y = t["train_data"]
    opt = t["optimizer"](model.parameters())
    for step in range(100):
        i = (step * 32) % len(x)
        out = _logits(model, x[i:i + 32]) if healthy else model(x[i:i + 32])   # fixed code: fc10 logits
        loss = t["loss_fn"](out, y[i:i + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        out = model(x)
        logits = _logits(model, x)
        return t["loss_fn"](out, y).item(), F.binary_cross_entropy_with_logits(logits, y).item()


def _run() -> str:
    mod = _load()
    torch.manual_seed(0)
    bug_loss, _ = _fit(mod, healthy=False)
    torch.manual_seed(0)
    _, ok_loss = _fit(mod, healthy=True)
    assert bug_loss > 0.4, bug_loss
    assert ok_loss < 0.5 * bug_loss, (ok_loss, bug_loss)
    return (f"after 100 steps the existence loss sits at {bug_loss:.3f} (floor ~0.31-0.69 with probabilities fed as logits); "
            f"feeding logits gives {ok_loss:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
