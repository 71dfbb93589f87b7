import importlib.util
import pathlib

import torch
import torch.nn as nn

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_d_dann_softmax_before_ce_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(t, model):
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    losses = []
    for step in range(300):
        i = (step * 64) % len(x)
        opt.zero_grad()
        loss = t["loss_fn"](model(x[i : i + 64]), y[i : i + 64])
        loss.backward()
        opt.step()
        losses.append(loss.item())
    vx, vy = t["val_data"]
    with torch.no_grad():
        acc = t["metric_fn"](model(vx), vy)
    return sum(losses[-20:]) / 20, acc


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    loss_sm, acc_sm = _train(t, t["model"])
    torch.manual_seed(0)
    fixed = mod.Classifier()
    fixed.label_head[-1] = nn.Identity()  # logits into CrossEntropyLoss
    loss_lg, acc_lg = _train(t, fixed)
    assert loss_sm > 1.6 and acc_sm < acc_lg - 0.2, (loss_sm, acc_sm, loss_lg, acc_lg)
    return (
        f"300 steps: train loss {loss_sm:.2f} and val accuracy {acc_sm:.2f} with the Softmax layer before "
        f"CrossEntropyLoss; {loss_lg:.2f} and {acc_lg:.2f} with raw logits"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
