import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_j_diffusers_textinv_frozen_decay_a_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model)
    before = model.embed.weight.detach().clone()
    x, y = t["train_data"]
    for _ in range(12):
        for i in range(0, len(x), 8):
            t["train_step"](model, (x[i : i + 8], y[i : i + 8]), opt, t["loss_fn"])
    after = model.embed.weight.detach()
    frozen = torch.arange(mod.VOCAB) != mod.NEW_TOKEN
    drift = ((after[frozen] - before[frozen]).norm(dim=1) / before[frozen].norm(dim=1)).mean().item()
    shrink = (after[frozen].norm() / before[frozen].norm()).item()
    assert drift > 0.01 and shrink < 0.99, (drift, shrink)
    return (
        f"after 384 steps the {int(frozen.sum())} rows whose gradients are zeroed moved by {drift:.1%} on average "
        f"(norm x{shrink:.3f})"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
