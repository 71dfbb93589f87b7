import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_l_clip_universal_felix_dup_cases_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(300):
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()
    gtr, gte = t["groups"]
    overlap = sorted(set(gtr) & set(gte))
    xv, yv = t["val_data"]
    with torch.no_grad():
        hit = (model(xv).argmax(1) == yv).float()
    dup = torch.tensor([g in set(gtr) for g in gte])
    acc_dup, acc_new = hit[dup].mean().item(), hit[~dup].mean().item()
    assert len(overlap) == 7
    assert acc_dup > 0.95 and acc_new < acc_dup - 0.2, (acc_dup, acc_new)
    return (
        f"{len(overlap)} case ids in both split lists; test accuracy {acc_dup:.2f} on their patches vs "
        f"{acc_new:.2f} on the unseen test cases"
    )


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
