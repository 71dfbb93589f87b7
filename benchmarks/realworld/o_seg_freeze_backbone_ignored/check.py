"""Build the target with freeze_backbone=True, count trainable params and train a few steps: the backbone moves."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("o_seg_freeze_backbone_ignored_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    assert model.freeze_backbone is True
    total = sum(p.numel() for p in model.parameters())
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    backbone_n = sum(p.numel() for p in model.backbone.parameters())
    before = [p.detach().clone() for p in model.backbone.parameters()]
    opt = t["optimizer"](model.parameters())
    x, y = t["batch"]
    for _ in range(10):
        opt.zero_grad()
        t["loss_fn"](model(x), y).backward()
        opt.step()
    moved = max((p.detach() - b).abs().max().item() for p, b in zip(model.backbone.parameters(), before))
    assert trainable == total and backbone_n > 0, (trainable, total)
    assert moved > 1e-3, moved
    return (f"freeze_backbone=True but {trainable}/{total} params trainable (backbone {backbone_n}); "
            f"backbone weights moved by up to {moved:.4f} after 10 steps")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
