import importlib.util
from pathlib import Path

import torch


def _target():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("target_" + p.parent.name, p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m.make_target()


def _check() -> str:
    t = _target()
    model = t["model"]
    xtr, ytr = t["train_data"]
    xva, yva = t["val_data"]
    opt = t["optimizer"](model.parameters())
    torch.manual_seed(1)
    for epoch in range(6):
        model.train()
        for i in range(0, 256, 32):
            opt.zero_grad()
            t["loss_fn"](model(xtr[i:i + 32]), ytr[i:i + 32]).backward()
            opt.step()
    full = (t["eval_fn"](model, xva).argmax(1) == yva).float().mean().item()
    single = torch.cat([t["eval_fn"](model, xva[i:i + 1]) for i in range(64)])
    acc1 = (single.argmax(1) == yva).float().mean().item()
    assert full > 0.85 and acc1 < full - 0.2, (full, acc1)
    return f"eval() accuracy with 64 images per call {full:.2f}, one image per call {acc1:.2f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

