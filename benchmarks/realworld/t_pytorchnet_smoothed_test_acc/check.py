"""Trains the target's classifier, then compares the reported (smoothed) test accuracy with the real one."""

import importlib.util
from pathlib import Path

import torch

_HERE = Path(__file__).resolve().parent


def _check() -> str:
    spec = importlib.util.spec_from_file_location("t_pnet_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    xtr, ytr = t["train_data"]
    for _ in range(4):
        for i in range(0, xtr.shape[0], 64):
            loss = loss_fn(model(xtr[i:i + 64]), ytr[i:i + 64])
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    correct = total = 0
    reported = None
    with torch.no_grad():
        mod._display["acc"] = None
        for x, y in t["val_data"]:
            out = model(x)
            reported = t["metric_fn"](out, y)
            correct += (out.argmax(1) == y).sum().item()
            total += y.numel()
        true_acc = 100.0 * correct / total
        # same model, same test set, batches in the reverse order
        mod._display["acc"] = None
        for x, y in reversed(t["val_data"]):
            reported_rev = t["metric_fn"](model(x), y)
    assert abs(reported - true_acc) > 10.0, (reported, true_acc)
    assert abs(reported - reported_rev) > 15.0, (reported, reported_rev)
    return (f"reported test accuracy {reported:.1f}% vs true {true_acc:.1f}% over the whole test set; "
            f"same model with the test batches reversed reports {reported_rev:.1f}%")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
