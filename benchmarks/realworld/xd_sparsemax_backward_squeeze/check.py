import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xd_sparsemax_backward_squeeze_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    torch.manual_seed(0)
    x2 = torch.randn(4, 6, dtype=torch.double)
    w = torch.randn(4, 6, dtype=torch.double)
    # the same scores as (B, T) and as (B, 1, T)
    a = x2.clone().requires_grad_()
    (mod.sparsemax(a, -1) * w).sum().backward()
    b = x2.unsqueeze(1).clone().requires_grad_()
    (mod.sparsemax(b, -1) * w.unsqueeze(1)).sum().backward()
    diff = (a.grad - b.grad.squeeze(1)).abs().max().item()
    # reference: differentiate the same forward with plain autograd
    c = x2.unsqueeze(1).clone().requires_grad_()
    tau, _ = mod._threshold(c, -1)
    (torch.clamp(c - tau, min=0) * w.unsqueeze(1)).sum().backward()
    ref_diff = (b.grad - c.grad).abs().max().item()
    # on the model: parameter gradients with the custom backward vs plain autograd through the same forward
    t = mod.make_target()
    model = t["model"]
    ids, y = t["batch"]
    t["loss_fn"](model(ids), y).backward()
    custom = model.query.grad.clone()
    model.zero_grad()
    orig = mod.sparsemax
    def ref_sparsemax(z, dim=-1):
        tau, _ = mod._threshold(z, dim)
        return torch.clamp(z - tau, min=0)
    mod.sparsemax = ref_sparsemax
    try:
        t["loss_fn"](model(ids), y).backward()
    finally:
        mod.sparsemax = orig
    ref = model.query.grad
    ratio = (custom.norm() / ref.norm()).item()
    cos = F.cosine_similarity(custom.flatten(), ref.flatten(), dim=0).item()
    assert diff > 1e-3 and ref_diff > 1e-3, (diff, ref_diff)
    assert ratio > 2.0 or cos < 0.9, (ratio, cos)
    return (f"sparsemax grad for (B,1,T) scores differs from the (B,T) call by {diff:.3f} and from autograd by "
            f"{ref_diff:.3f}; attention-query grad in the model is {ratio:.1f}x the autograd one (cosine {cos:.2f})")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
