import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_k_fedlearn_mlp_softmax_into_ce_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, drop_softmax):
    t = mod.make_target()
    torch.manual_seed(0)
    model = mod.MLP()
    if drop_softmax:
        model.softmax = torch.nn.Identity()
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    losses = []
    for _ in range(8):
        model.train()
        for i in range(0, len(x), 64):
            opt.zero_grad()
            loss = t["loss_fn"](model(x[i : i + 64]), y[i : i + 64])
            loss.backward()
            opt.step()
            losses.append(loss.item())
    model.eval()
    xv, yv = t["val_data"]
    with torch.no_grad():
        acc = (model(xv).argmax(1) == yv).float().mean().item()
    return sum(losses[-16:]) / 16, acc


def _check() -> str:
    mod = _load()
    loss_bug, acc_bug = _run(mod, False)
    loss_fix, acc_fix = _run(mod, True)
    assert loss_bug > 1.46 and loss_fix < 0.5 * loss_bug and acc_fix > acc_bug + 0.02, (loss_bug, acc_bug, loss_fix, acc_fix)
    return (
        f"softmax output into CrossEntropyLoss: train loss floors at {loss_bug:.3f} (bound 1.461), val acc {acc_bug:.3f}; "
        f"logits: loss {loss_fix:.3f}, val acc {acc_fix:.3f}"
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
