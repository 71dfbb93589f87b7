"""Train the target as is and with the final Softmax dropped: the softmax version's loss stalls far above the other."""

import importlib.util
from pathlib import Path

import torch
from torch import nn


def _target():
    spec = importlib.util.spec_from_file_location("q_urbansound_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, drop_softmax):
    t = mod.make_target()
    model = t["model"]
    if drop_softmax:
        model.softmax = nn.Identity()
    x, y = t["train_data"]
    opt = t["optimizer"](model.parameters())
    g = torch.Generator().manual_seed(0)
    losses = []
    for _ in range(10):
        perm = torch.randperm(len(x), generator=g)
        tot = 0.0
        for i in range(0, len(x), 64):
            idx = perm[i:i + 64]
            loss = t["loss_fn"](model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        losses.append(tot / len(x))
    return losses


def _check() -> str:
    mod = _target()
    bad = _run(mod, drop_softmax=False)
    ok = _run(mod, drop_softmax=True)
    floor = -torch.log(torch.tensor(torch.e / (torch.e + 9))).item()  # best CE reachable on probabilities in [0, 1]
    assert min(bad) > floor - 1e-3 and bad[-1] > 1.4, bad
    assert abs(bad[-1] - bad[-3]) < 0.05, bad
    assert ok[-1] < 0.3 and ok[-1] < bad[-1] - 1.0, (ok, bad)
    return (f"Softmax into CrossEntropyLoss: epoch loss {bad[0]:.3f} -> {bad[-3]:.3f} -> {bad[-1]:.3f} "
            f"(cannot go below {floor:.3f}); logits into CrossEntropyLoss: {ok[0]:.3f} -> {ok[-1]:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
