import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    spec = importlib.util.spec_from_file_location("va_arm_batch_mean_feature_test_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    xtr, ytr = t["train_data"]
    xva, yva = t["val_data"]
    opt = t["optimizer"](model.parameters())
    torch.manual_seed(0)
    model.train()
    for epoch in range(2):
        perm = torch.randperm(len(xtr))
        for i in range(0, len(xtr), 64):
            idx = perm[i:i + 64]
            opt.zero_grad()
            F.cross_entropy(model(xtr[idx]), ytr[idx]).backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        big = model(xva[:64])
        one = torch.cat([model(xva[i:i + 1]) for i in range(64)])
        acc_big = (big.argmax(1) == yva[:64]).float().mean().item()
        acc_one = (one.argmax(1) == yva[:64]).float().mean().item()
        gap = (big - one).abs().max().item()
    assert gap > 0.5, gap
    assert acc_big - acc_one > 0.15, (acc_big, acc_one)
    return (f"eval mode, same 64 images: accuracy {acc_big:.2f} in one batch of 64 vs {acc_one:.2f} one at a time; "
            f"max logit change {gap:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
