"""Train the target on raw pixels and on pixels/255: raw inputs give huge logits, a huge first-epoch loss, worse val acc."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _target():
    spec = importlib.util.spec_from_file_location("q_fashion_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, scale):
    t = mod.make_target()
    model = t["model"]
    x, y = t["train_data"]
    xv, yv = t["val_data"]
    opt = t["optimizer"](model.parameters())
    with torch.no_grad():
        logit_std = model(x[:64] / scale).std().item()
    g = torch.Generator().manual_seed(0)
    ep_losses, accs = [], []
    for _ in range(3):
        perm = torch.randperm(len(x), generator=g)
        tot = 0.0
        for i in range(0, len(x), 64):
            idx = perm[i:i + 64]
            loss = F.cross_entropy(model(x[idx] / scale), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        ep_losses.append(tot / len(x))
        with torch.no_grad():
            accs.append((model(xv / scale).argmax(1) == yv).float().mean().item())
    return logit_std, ep_losses, accs


def _check() -> str:
    mod = _target()
    raw_std, raw_loss, raw_acc = _run(mod, 1.0)
    ok_std, ok_loss, ok_acc = _run(mod, 255.0)
    assert raw_std > 30 * ok_std, (raw_std, ok_std)
    assert raw_loss[0] > 5 * ok_loss[0], (raw_loss, ok_loss)
    assert raw_acc[1] < ok_acc[1] - 0.05, (raw_acc, ok_acc)
    return (f"raw 0-255 inputs: initial logit std {raw_std:.1f}, epoch-1 loss {raw_loss[0]:.1f}, val acc by epoch "
            f"{[round(a, 2) for a in raw_acc]}; inputs/255: logit std {ok_std:.2f}, epoch-1 loss {ok_loss[0]:.2f}, "
            f"val acc {[round(a, 2) for a in ok_acc]}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
