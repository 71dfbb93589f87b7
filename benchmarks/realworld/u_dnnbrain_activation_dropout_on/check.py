"""Two extraction passes over the same images give different fc7 activations; in eval mode they agree."""

import importlib.util
from pathlib import Path

import torch


def _target():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("u_dnnbrain_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _target()
    cfg = t.make_target()
    model, (images, _) = cfg["model"], cfg["batch"]
    a = t.extract_fc7(model, images)
    b = t.extract_fc7(model, images)
    corr = torch.corrcoef(torch.stack([a.flatten(), b.flatten()]))[0, 1].item()
    model.eval()
    c = t.extract_fc7(model, images)
    d = t.extract_fc7(model, images)
    assert model.training is False
    assert corr < 0.9 and not torch.allclose(a, b), corr
    assert torch.equal(c, d)
    return (f"as extracted: run-to-run corr of fc7 activations {corr:.2f}, zeros {(a == 0).float().mean():.0%}; "
            f"after model.eval(): identical, zeros {(c == 0).float().mean():.0%}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
