"""After training, the target's validation routine gives different accuracies on repeated calls and scores below eval mode."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("r_deephyperx_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _check() -> str:
    t = _load().make_target()
    model, opt = t["model"], t["optimizer"](t["model"].parameters())
    xtr, ytr = t["train_data"]
    xva, yva = t["val_data"]
    torch.manual_seed(0)
    for _ in range(15):
        for i in range(0, 512, 64):
            loss = t["loss_fn"](model(xtr[i:i + 64]), ytr[i:i + 64])
            opt.zero_grad()
            loss.backward()
            opt.step()
    accs = []
    for i in range(5):
        torch.manual_seed(100 + i)
        accs.append(t["metric_fn"](t["eval_fn"](model, xva[:64]), yva[:64]))
    model.eval()
    with torch.no_grad():
        true_acc = t["metric_fn"](model(xva[:64]), yva[:64])
    spread = max(accs) - min(accs)
    assert spread >= 0.04, accs
    assert true_acc > sum(accs) / len(accs) + 0.03, (true_acc, accs)
    return (f"val() without eval(): accuracies {[round(a, 3) for a in accs]} on the same 64 samples; "
            f"with model.eval(): {true_acc:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
