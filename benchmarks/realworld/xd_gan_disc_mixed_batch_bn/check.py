import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xd_gan_disc_mixed_batch_bn_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    step = t["model"]
    (real, fake), y = t["batch"]
    opt = t["optimizer"](step.parameters())
    for _ in range(20):
        t["train_step"](step, ((real, fake), y), opt, t["loss_fn"])
    with torch.no_grad():
        mod.G.train()
        torch.manual_seed(1)
        other_fake = mod.G(torch.randn(len(fake), mod.LATENT)).sign()   # a later, saturated generator
        step.train()
        a = step(real, fake)[:, 0]
        b = step(real, other_fake)[:, 0]
    shift = (a - b).abs().max().item()
    spread = a.std().item()
    assert shift > 0.1 * max(spread, 1e-3) and shift > 2e-2, (shift, spread)
    return (f"discriminator logits for the same 32 real images move by up to {shift:.3f} when only the generated half "
            f"of the batch is swapped (their logit std is {spread:.3f})")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
