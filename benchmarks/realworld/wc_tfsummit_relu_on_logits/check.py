import copy
import importlib.util
import os

import torch
from torch import nn


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wc_tfsummit_relu_on_logits_target",
                                                  os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(model, t, steps=400):
    X, Y = t["train_data"]
    opt = t["optimizer"](model.parameters())
    g = torch.Generator().manual_seed(0)
    for _ in range(steps):
        idx = torch.randint(0, len(X), (64,), generator=g)
        opt.zero_grad()
        t["loss_fn"](model(X[idx]), Y[idx]).backward()
        opt.step()
    return model


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    VX, VY = t["val_data"]
    base = t["model"]
    plain = copy.deepcopy(base)
    last = plain.fc2
    plain.fc2 = nn.Sequential(*[m for m in last if not isinstance(m, nn.ReLU)])  # same weights, raw logits
    model = _train(base, t)
    plain = _train(plain, t)
    with torch.no_grad():
        out = model(VX)
        acc = t["metric_fn"](out, VY)
        acc_plain = t["metric_fn"](plain(VX), VY)
    zero_frac = (out == 0).float().mean().item()
    dead_true = (out.gather(1, VY[:, None]) == 0).float().mean().item()
    assert zero_frac > 0.5, zero_frac
    assert acc < acc_plain - 0.1, (acc, acc_plain)
    return (f"val accuracy {acc:.2f} vs {acc_plain:.2f} for the same net with raw logits; {zero_frac:.0%} of output "
            f"scores are exactly 0 and the true class's score is 0 for {dead_true:.0%} of examples")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
