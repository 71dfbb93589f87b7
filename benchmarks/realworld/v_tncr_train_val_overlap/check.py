"""Train the target's model on its train split; validation rows that also sit in train score far higher."""
import importlib.util
import os

import torch


def _load():
    p = os.path.join(os.path.dirname(os.path.abspath(__file__)), "target.py")
    s = importlib.util.spec_from_file_location("v_tncr_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _check() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    xtr, ytr = t["train_data"]
    xva, yva = t["val_data"]
    opt = t["optimizer"](model.parameters())
    torch.manual_seed(0)
    for _ in range(300):
        idx = torch.randperm(len(xtr))[:128]
        opt.zero_grad()
        loss_fn(model(xtr[idx]), ytr[idx]).backward()
        opt.step()
    train_rows = {tuple(r.tolist()) for r in xtr}
    dup = torch.tensor([tuple(r.tolist()) in train_rows for r in xva])
    with torch.no_grad():
        correct = (model(xva).argmax(1) == yva).float()
        tr_acc = (model(xtr).argmax(1) == ytr).float().mean().item()
    acc_dup, acc_new, acc_all = correct[dup].mean().item(), correct[~dup].mean().item(), correct.mean().item()
    assert dup.sum().item() > 0, "no overlap"
    assert acc_dup > acc_new + 0.25, (acc_dup, acc_new)
    return (f"{int(dup.sum())}/{len(xva)} val rows also in train; train acc {tr_acc:.2f}, val acc {acc_all:.2f} "
            f"(overlapping rows {acc_dup:.2f} vs unseen rows {acc_new:.2f})")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
