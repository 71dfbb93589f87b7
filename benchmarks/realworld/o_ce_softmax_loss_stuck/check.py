"""Train the target as written (softmax output into CrossEntropyLoss) and the same net returning logits."""

import importlib.util
from pathlib import Path

import torch
from torch import nn


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("o_ce_softmax_loss_stuck_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, logits):
    t = mod.make_target()
    model, opt = t["model"], t["optimizer"](t["model"].parameters())
    if logits:
        model.prob = nn.Identity()
    x, y = t["train_data"]
    losses = []
    for epoch in range(25):
        for i in range(0, len(x), 64):
            opt.zero_grad()
            loss = t["loss_fn"](model(x[i:i + 64]), y[i:i + 64])
            loss.backward()
            opt.step()
        losses.append(loss.item())
    xv, yv = t["val_data"]
    with torch.no_grad():
        acc = (model(xv).argmax(1) == yv).float().mean().item()
    return losses, acc


def _check() -> str:
    mod = _load()
    bad, bad_acc = _train(mod, logits=False)
    good, good_acc = _train(mod, logits=True)
    # with probabilities fed to CrossEntropyLoss the loss cannot go below -log(e / (e + 9)) ~ 1.46
    floor = -torch.log(torch.tensor(torch.e / (torch.e + 9))).item()
    assert min(bad) > floor and bad[0] > 2.25, (floor, bad[:3] + bad[-3:])
    assert good[-1] < 0.3 and min(bad) > 4 * good[-1], (good[-1], min(bad))
    return (f"softmax into CrossEntropyLoss: loss {bad[0]:.3f} -> {bad[-1]:.3f} over 25 epochs (min {min(bad):.3f}), "
            f"val acc {bad_acc:.2f}; logits: loss {good[0]:.3f} -> {good[-1]:.3f}, val acc {good_acc:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
