"""Train on the target's random window split: validation accuracy is high, while the same model recipe trained on
a subject-wise split does much worse on unseen subjects; every validation subject also appears in training."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    spec = importlib.util.spec_from_file_location("s_ecgqc_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit_eval(mod, xtr, ytr, xva, yva):
    torch.manual_seed(0)
    model = mod.make_model()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(300):
        opt.zero_grad()
        F.cross_entropy(model(xtr), ytr).backward()
        opt.step()
    with torch.no_grad():
        return (model(xva).argmax(1) == yva).float().mean().item()


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    (xtr, ytr), (xva, yva) = t["train_data"], t["val_data"]
    gtr, gva = t["groups"]
    shared = len(set(gva) & set(gtr)) / len(set(gva))
    leaky = _fit_eval(mod, xtr, ytr, xva, yva)
    x, y, grp = mod.make_data()
    held = grp >= 32  # 8 subjects never seen in training
    honest = _fit_eval(mod, x[~held], y[~held], x[held], y[held])
    assert shared == 1.0, shared
    assert leaky > 0.8 and leaky - honest > 0.2, (leaky, honest)
    return (f"random window split: val acc {leaky:.2f} with {shared:.0%} of val subjects also in train; "
            f"subject-wise split: acc on unseen subjects {honest:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
