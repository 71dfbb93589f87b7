"""Shows all-zero predictions, zero gradients and a frozen loss; the same net with zero biases trains."""
import importlib.util
from pathlib import Path

import torch
from torch import nn


def _load():
    spec = importlib.util.spec_from_file_location("vb_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(t, steps=20):
    model, (x, y) = t["model"], t["batch"]
    opt = t["optimizer"](model.parameters())
    losses, gnorm = [], None
    for _ in range(steps):
        opt.zero_grad()
        loss = t["loss_fn"](model(x), y)
        loss.backward()
        if gnorm is None:
            gnorm = sum(p.grad.norm() ** 2 for p in model.parameters()).sqrt().item()
        opt.step()
        losses.append(loss.item())
    with torch.no_grad():
        out = model(x)
    return losses, gnorm, out


def _run() -> str:
    mod = _load()
    losses, gnorm, out = _train(mod.make_target())
    assert out.abs().max().item() == 0.0
    assert gnorm == 0.0 and losses[-1] == losses[0], (gnorm, losses[0], losses[-1])
    t = mod.make_target()
    for m in t["model"].modules():
        if isinstance(m, (nn.Conv3d, nn.ConvTranspose3d)):
            nn.init.zeros_(m.bias)
    ok_losses, ok_g, _ = _train(t)
    assert ok_g > 0 and ok_losses[-1] < 0.9 * ok_losses[0], ok_losses
    return (f"predictions all zero (max {out.abs().max().item():.1f}), total grad norm {gnorm:.1f}, loss fixed at "
            f"{losses[0]:.4f} for 20 steps; with zero biases grad norm {ok_g:.3f}, loss {ok_losses[0]:.4f} -> {ok_losses[-1]:.4f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
