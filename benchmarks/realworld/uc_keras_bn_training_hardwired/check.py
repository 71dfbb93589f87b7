import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("uc_keras_bn_training_hardwired_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    opt = t["optimizer"](model.parameters())
    model.train()
    for _ in range(30):
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()
    full = t["eval_fn"](model, x)
    small = t["eval_fn"](model, x[:4])
    mixed = t["eval_fn"](model, torch.cat([x[:1], x[1:4] * 2.0]))
    d_size = (full[:4] - small).abs().max().item()
    d_mates = (small[0] - mixed[0]).abs().max().item()
    # with running statistics used at eval time, an image's logits would not depend on its batch at all
    assert d_size > 1e-3 and d_mates > 1e-3, (d_size, d_mates)
    return (f"after model.eval(): image logits move by {d_size:.3f} when the predict batch shrinks 32->4 and image 0 "
            f"moves by {d_mates:.3f} when only its batch-mates change")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
