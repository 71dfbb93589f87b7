import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ub_flip_trigger_inversion_leaves_eval_target",
                                                  os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn, step = t["model"], t["loss_fn"], t["train_step"]
    opt = t["optimizer"](model.parameters())
    seen = []
    hook = model.bn1.register_forward_pre_hook(lambda m, inp: seen.append(m.training))
    x, y = t["train_data"]
    for i in range(0, 128, 32):
        step(model, (x[i:i + 32], y[i:i + 32]), opt, loss_fn)
    hook.remove()
    # batches of raw pixels have a channel mean far from 0, yet the running statistics never moved
    batch_mean = model.conv1(x[:32]).mean((0, 2, 3))
    assert torch.all(model.bn1.running_mean == 0), model.bn1.running_mean
    assert torch.all(model.bn1.running_var == 1), model.bn1.running_var
    assert int(model.bn1.num_batches_tracked) == 0, model.bn1.num_batches_tracked
    assert batch_mean.abs().max() > 0.05, batch_mean
    # the parameter update itself ran with BatchNorm in inference mode
    assert seen[-1] is False and not model.training, seen[-4:]
    return (f"after 4 training steps bn1.num_batches_tracked={int(model.bn1.num_batches_tracked)}, running_mean still 0 "
            f"(conv1 batch channel means up to {batch_mean.abs().max().item():.2f}); model.training={model.training} "
            f"during the gradient step")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
