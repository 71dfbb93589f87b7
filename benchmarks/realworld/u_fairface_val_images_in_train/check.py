import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_u_fairface_val_images_in_train_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    (xtr, ytr), (xva, yva) = t["train_data"], t["val_data"]
    tr_ids, va_ids = t["groups"]
    shared = set(tr_ids) & set(va_ids)
    is_dup = torch.tensor([i in shared for i in va_ids])
    opt = t["optimizer"](model.parameters())
    torch.manual_seed(0)
    for epoch in range(40):
        perm = torch.randperm(len(xtr))
        for i in range(0, len(xtr), 64):
            idx = perm[i:i + 64]
            loss = loss_fn(model(xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        ok = (model(xva).argmax(-1) == yva).float()
        tr_acc = (model(xtr).argmax(-1) == ytr).float().mean().item()
    acc_all, acc_dup, acc_new = ok.mean().item(), ok[is_dup].mean().item(), ok[~is_dup].mean().item()
    assert len(shared) / len(va_ids) > 0.3 and acc_dup - acc_new > 0.3 and acc_all - acc_new > 0.15, (
        len(shared), acc_all, acc_dup, acc_new)
    return (f"{len(shared)}/{len(va_ids)} val images also in train; train acc {tr_acc:.2f}, reported val acc {acc_all:.2f} "
            f"= {acc_dup:.2f} on the duplicates vs {acc_new:.2f} on unseen images")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
