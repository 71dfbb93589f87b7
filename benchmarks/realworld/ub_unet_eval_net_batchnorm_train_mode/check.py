import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ub_unet_eval_net_batchnorm_train_mode_target",
                                                  os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, eval_fn = t["model"], t["eval_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(3):
        for i in range(0, 64, 16):
            t["train_step"](model, (x[i:i + 16], y[i:i + 16]), opt, t["loss_fn"])
    vx, vy = t["val_data"]
    rm_before = model.down1[1].running_mean.clone()
    together = eval_fn(model, (vx[:8], vy[:8]))
    alone = eval_fn(model, (vx[:1], vy[:1]))
    rm_after = model.down1[1].running_mean.clone()
    diff = (together[:1] - alone).abs().max().item()
    # the same scan gets different logits depending on what else is in the validation batch
    assert diff > 1e-2, diff
    # and validation itself rewrites the BatchNorm running statistics
    assert not torch.allclose(rm_before, rm_after), (rm_before, rm_after)
    assert model.training
    d8 = sum(t["metric_fn"](eval_fn(model, (vx[i:i + 8], vy[i:i + 8])), vy[i:i + 8]) for i in range(0, 32, 8)) / 4
    d1 = sum(t["metric_fn"](eval_fn(model, (vx[i:i + 1], vy[i:i + 1])), vy[i:i + 1]) for i in range(32)) / 32
    return (f"max logit change for one scan evaluated alone vs in a batch of 8: {diff:.3f}; "
            f"validation moved bn running_mean by {(rm_after - rm_before).abs().max().item():.3f}; "
            f"val dice bs=8 {d8:.3f} vs bs=1 {d1:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
