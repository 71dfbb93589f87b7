import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_sound_bubble_grad_clip_dropped_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn, step = t["model"], t["loss_fn"], t["train_step"]
    opt = t["optimizer"](model.parameters())
    losses, norms = [], []
    for _ in range(5):
        loss = step(model, t["batch"], opt, loss_fn)
        losses.append(loss.item())
        norms.append(torch.norm(torch.stack([p.grad.norm() for p in model.parameters()])).item())
    biggest = max(p.detach().abs().max().item() for p in model.parameters())
    assert norms[0] > 1e6, norms[0]
    assert biggest > 1e4, biggest
    return (f"unclipped first-step grad norm {norms[0]:.2e} at loss {losses[0]:.4f}; after one SGD step weights "
            f"reach {biggest:.1e} and the loss is stuck at {losses[-1]:.4f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
