"""Score the same images in batches of different size, as the package does, then with model.eval()."""
import importlib.util
import os

import torch

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load():
    spec = importlib.util.spec_from_file_location("u_bioval_target", os.path.join(_HERE, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _scores(mod, model, images, bs):
    return torch.cat([mod.score_images(model, images[i:i + bs]) for i in range(0, len(images), bs)])


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, (images, labels) = t["model"], t["batch"]
    assert model.training
    per_bs = {bs: _scores(mod, model, images, bs) for bs in (4, 8, 32)}
    metric = {bs: mod.mean_confidence(p) for bs, p in per_bs.items()}
    diff = (per_bs[4] - per_bs[32]).abs().max().item()
    model.eval()
    fixed = {bs: _scores(mod, model, images, bs) for bs in (4, 8, 32)}
    fixed_diff = (fixed[4] - fixed[32]).abs().max().item()
    spread = max(metric.values()) - min(metric.values())
    assert diff > 0.05 and spread > 0.005, (diff, metric)
    assert fixed_diff < 1e-5, fixed_diff
    return (f"same 32 images, model left in train mode: metric {metric[4]:.3f}/{metric[8]:.3f}/{metric[32]:.3f} "
            f"at batch size 4/8/32, per-image prob diff up to {diff:.3f}; after model.eval(): diff {fixed_diff:.1e}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
