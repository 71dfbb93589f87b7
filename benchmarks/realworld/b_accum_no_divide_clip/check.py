import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_accum_no_divide_clip_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _grad_norm(model):
    return torch.sqrt(sum((p.grad ** 2).sum() for p in model.parameters() if p.grad is not None))


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    model.zero_grad()
    mod.accumulate(model, (x, y), loss_fn)
    g_acc = float(_grad_norm(model))
    model.zero_grad()
    loss_fn(model(x), y).backward()
    g_full = float(_grad_norm(model))
    ratio = g_acc / g_full
    assert abs(ratio - mod.ACCUM_STEPS) < 0.5, ratio
    return (f"accumulated grad norm {g_acc:.3f} vs full-batch {g_full:.3f}: ratio {ratio:.2f} "
            f"(= accumulation steps {mod.ACCUM_STEPS}); clip {mod.CLIP} acts on the inflated norm")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
