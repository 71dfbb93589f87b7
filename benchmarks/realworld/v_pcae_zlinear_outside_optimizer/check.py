"""Imports target.py: after training steps with its optimizer the latent projection z_linear has gradients
but its weights are bit-for-bit unchanged, while the backbone's weights move."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("v_pcae_target", p)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _check() -> str:
    t = _load().make_target()
    model, batch, loss_fn = t["model"], t["batch"], t["loss_fn"]
    opt = t["optimizer"](model)
    zw = model.z_linear.weight.detach().clone()
    hw = model.bart.lm_head.weight.detach().clone()
    gnorm = 0.0
    for _ in range(10):
        opt.zero_grad()
        loss = loss_fn(model(batch[0]), batch[1])
        loss.backward()
        gnorm = max(gnorm, model.z_linear.weight.grad.norm().item())
        opt.step()
    z_moved = (model.z_linear.weight - zw).abs().max().item()
    h_moved = (model.bart.lm_head.weight - hw).abs().max().item()
    assert z_moved == 0.0 and gnorm > 1e-4 and h_moved > 1e-3, (z_moved, gnorm, h_moved)
    return f"z_linear grad norm up to {gnorm:.4f} but weights moved {z_moved:.1e}; lm_head moved {h_moved:.4f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
