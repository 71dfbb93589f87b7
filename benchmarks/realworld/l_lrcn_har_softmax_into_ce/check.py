import copy
import importlib.util
import pathlib

import torch
import torch.nn as nn

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_l_lrcn_har_softmax_into_ce_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(model, t):
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    losses = []
    for _ in range(10):
        for i in range(0, len(x), 32):
            loss = t["loss_fn"](model(x[i : i + 32]), y[i : i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            losses.append(t["loss_fn"](model(x), y).item())
    return losses


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    buggy = t["model"]
    fixed = copy.deepcopy(buggy)
    fixed.softmax = nn.Identity()
    lb, lf = _train(buggy, t), _train(fixed, t)
    floor = nn.CrossEntropyLoss()(torch.eye(mod.N_CLS), torch.arange(mod.N_CLS)).item()
    assert lb[-1] > floor + 0.2 and lf[-1] < floor, (lb[-1], lf[-1], floor)
    return (
        f"softmax output into CrossEntropyLoss: train loss {lb[0]:.3f} -> {lb[-1]:.3f} (floor {floor:.3f} even for "
        f"perfect one-hot outputs); raw logits: {lf[0]:.3f} -> {lf[-1]:.3f}"
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
