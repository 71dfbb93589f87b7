"""Every ReLU unit is off for every example, the layers below get zero gradient, predictions stay constant."""

import importlib.util
from pathlib import Path

import torch


def _target():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("_t_relu_dead", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _check() -> str:
    t = _target().make_target()
    model, (x, y), loss_fn = t["model"], t["batch"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    pre = model.ff(model.emb(x))
    assert (pre < 0).all(), pre.max()
    first = None
    for _ in range(60):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        if first is None:
            first = loss.item()
            g_low = model.emb.weight.grad.abs().sum().item() + model.ff.weight.grad.abs().sum().item()
        opt.step()
    preds = model(x).argmax(1)
    prior = torch.bincount(y, minlength=3).float() / len(y)
    floor = -(prior[prior > 0] * prior[prior > 0].log()).sum().item()
    assert g_low == 0.0 and preds.unique().numel() == 1 and loss.item() > floor - 1e-3, (g_low, preds, loss.item())
    return (f"all {pre.numel()} ReLU pre-activations negative; embedding/ff grad sum {g_low}; after 60 Adam steps "
            f"loss {first:.3f} -> {loss.item():.3f} (label-prior floor {floor:.3f}), one predicted class")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
