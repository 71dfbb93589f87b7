"""The model learns (true accuracy high) while the target's accuracy helper reports 0."""

import importlib.util
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("m_cnntext_target", HERE / "target.py")
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
    for _ in range(6):
        perm = torch.randperm(len(xt), generator=g)
        for i in range(0, len(xt), 64):
            idx = perm[i:i + 64]
            model.train()
            opt.zero_grad()
            loss_fn(model(xt[idx]), yt[idx]).backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        logits = model(xv)
    true_acc = (logits.argmax(1) == yv).float().mean().item() * 100
    logged = [t["metric_fn"](logits[i:i + 64], yv[i:i + 64]) for i in range(0, len(yv), 64)]
    assert true_acc > 80, true_acc
    assert max(logged) == 0.0, logged
    return f"true val accuracy {true_acc:.1f}% while the logged accuracy per batch is {logged}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
