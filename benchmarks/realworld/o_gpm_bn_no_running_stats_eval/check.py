"""In eval mode, BN without running stats makes test accuracy depend on the test batch size and composition."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("o_gpm_bn_target", p)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _acc(m, model, x, y, bs):
    correct = 0
    for i in range(0, len(x), bs):
        correct += (m.evaluate(model, x[i:i + bs]).argmax(-1) == y[i:i + bs]).sum().item()
    return correct / len(x)


def _check() -> str:
    m = _load()
    t = m.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for epoch in range(5):
        model.train()
        for i in range(0, len(x), 64):
            loss = F.cross_entropy(model(x[i:i + 64]), y[i:i + 64])
            opt.zero_grad()
            loss.backward()
            opt.step()
    xv, yv = t["val_data"]
    acc64 = _acc(m, model, xv, yv, 64)
    acc2 = _acc(m, model, xv, yv, 2)
    order = torch.argsort(yv)
    acc_sorted = _acc(m, model, xv[order], yv[order], 64)
    one = m.evaluate(model, xv[:1])
    in_batch = m.evaluate(model, xv[:64])[:1]
    diff = (one - in_batch).abs().max().item()
    assert acc64 > 0.8 and acc64 - acc2 > 0.15 and acc64 - acc_sorted > 0.15 and diff > 1e-2, (acc64, acc2, acc_sorted, diff)
    return (f"eval mode: test acc {acc64:.2f} with batch 64, {acc2:.2f} with batch 2, {acc_sorted:.2f} with "
            f"class-sorted batches; one sample's logits differ by {diff:.2f} alone vs in a batch")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
