"""Train the linear probe a few steps: backbone params have no grad, yet its BN buffers and eval features move."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("p_linear_probe_bn_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model, (x, y) = t["model"], t["batch"]
    assert all(not p.requires_grad for p in model.backbone.parameters())
    opt = t["optimizer"](list(model.parameters()))
    before_buf = {k: v.clone() for k, v in model.backbone.state_dict().items() if "running" in k}
    before_w = {k: v.clone() for k, v in model.backbone.state_dict().items() if "running" not in k and "num_batches" not in k}
    probe = torch.randn(4, 3, 12, 12, generator=torch.Generator().manual_seed(3))
    model.eval()
    with torch.no_grad():
        f0 = model.backbone(probe).clone()
    for _ in range(20):
        t["train_step"](model, (x, y), opt, t["loss_fn"])
    after = model.backbone.state_dict()
    w_same = all(torch.equal(before_w[k], after[k]) for k in before_w)
    drift = max((after[k] - before_buf[k]).abs().max().item() for k in before_buf)
    model.eval()
    with torch.no_grad():
        f1 = model.backbone(probe)
    fdiff = (f1 - f0).abs().max().item()
    assert w_same, "backbone weights changed"
    assert drift > 0.1 and fdiff > 1e-3, (drift, fdiff)
    return f"backbone weights unchanged but BN running stats moved by {drift:.2f}; eval features changed by {fdiff:.3f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
