import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("td_masked_bce_mean_first_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    tokens, (gt, mask) = t["batch"]
    logits = model(tokens).detach().requires_grad_(True)
    loss = t["loss_fn"](logits, (gt, mask))
    plain = F.binary_cross_entropy_with_logits(logits, gt)  # every position, padding included
    loss.backward()
    pad = (mask.squeeze(-1) == 0)
    grad_pad = logits.grad[pad].abs().sum().item()
    frac_pad = pad.float().mean().item()
    assert frac_pad > 0.2, frac_pad
    assert abs(loss.item() - plain.item()) < 1e-6, (loss.item(), plain.item())
    assert grad_pad > 1e-3, grad_pad
    return (f"masked loss {loss.item():.5f} equals the plain mean over all positions {plain.item():.5f}; "
            f"{frac_pad:.0%} of positions are padding and they receive gradient (|g| sum {grad_pad:.3f})")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
