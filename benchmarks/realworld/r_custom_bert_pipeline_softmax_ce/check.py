"""Training with the target's loss: accuracy reaches ~100% but the loss sits near its floor log(1+(K-1)/e)."""

import importlib.util
import math
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("r_custom_bert_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _train(t, loss_fn):
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    torch.manual_seed(0)
    for _ in range(30):
        for i in range(0, 256, 64):
            loss = loss_fn(model(x[i:i + 64]), y[i:i + 64])
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        out = model(x)
    return loss_fn(out, y).item(), t["metric_fn"](out, y)


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    bad_loss, bad_acc = _train(t, t["loss_fn"])
    ok_loss, ok_acc = _train(mod.make_target(), torch.nn.CrossEntropyLoss())
    floor = math.log(1 + 4 / math.e)
    assert bad_acc > 0.95 and bad_loss > floor - 1e-3 and bad_loss < floor + 0.1, (bad_acc, bad_loss, floor)
    assert ok_loss < 0.2 * bad_loss, (ok_loss, bad_loss)
    return (f"softmax before CrossEntropyLoss: acc {bad_acc:.2f} but loss {bad_loss:.3f} (floor {floor:.3f}); "
            f"logits into CrossEntropyLoss: loss {ok_loss:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
