"""Validation accuracy is far above chance only because half of the validation rows are training rows."""

import importlib.util
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("m_conclugen_target", HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    xt, yt = t["train_data"]
    xv, yv = t["val_data"]
    g = torch.Generator().manual_seed(1)
    for _ in range(60):
        perm = torch.randperm(len(xt), generator=g)
        for i in range(0, len(xt), 32):
            idx = perm[i:i + 32]
            opt.zero_grad()
            loss_fn(model(xt[idx]), yt[idx]).backward()
            opt.step()
    with torch.no_grad():
        pred = model(xv).argmax(1)
    train_rows = {tuple(r.tolist()) for r in xt}
    seen = torch.tensor([tuple(r.tolist()) in train_rows for r in xv])
    acc_all = (pred == yv).float().mean().item()
    acc_seen = (pred[seen] == yv[seen]).float().mean().item()
    acc_new = (pred[~seen] == yv[~seen]).float().mean().item()
    chance = 1 / mod.N_CONCL
    assert seen.float().mean().item() > 0.3, seen.float().mean()
    assert acc_seen > 0.9 and acc_new < 5 * chance and acc_all > 0.4, (acc_seen, acc_new, acc_all)
    return (
        f"{int(seen.sum())}/{len(xv)} validation rows are copies of training rows: val acc {acc_all:.2f} overall, "
        f"{acc_seen:.2f} on the copies, {acc_new:.2f} on unseen rows (chance {chance:.3f})"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
