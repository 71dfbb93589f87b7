import copy
import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xd_frozen_bn_stats_drift_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model = t["model"]
    before = copy.deepcopy(model.backbone.state_dict())
    x, y = t["batch"]
    with torch.no_grad():
        feat_before = copy.deepcopy(model.backbone).eval()(x)
    opt = t["optimizer"](model)
    for step in range(30):
        t["train_step"](model, (x, y), opt, t["loss_fn"])
        if step % 10 == 9:
            t["eval_fn"](model, (x, y))
    after = model.backbone.state_dict()
    w_change = max((after[k] - before[k]).abs().max().item() for k in before if k.endswith(("weight", "bias")))
    rm_change = (after["bn1.running_mean"] - before["bn1.running_mean"]).abs().max().item()
    rv_ratio = (after["bn1.running_var"] / before["bn1.running_var"]).max().item()
    with torch.no_grad():
        model.eval()
        feat_after = model.backbone(x)
        model.train()
        feat_train = model.backbone(x)
    drift = ((feat_after - feat_before).norm() / feat_before.norm()).item()
    mode_gap = ((feat_train - feat_after).norm() / feat_after.norm()).item()
    assert w_change == 0.0, w_change
    assert rm_change > 0.1 and drift > 0.05, (rm_change, drift)
    return (f"frozen backbone weights unchanged (max diff {w_change}), but bn1.running_mean moved by {rm_change:.2f} "
            f"and running_var grew up to {rv_ratio:.1f}x; eval-mode backbone features shifted {drift:.0%}, "
            f"train- vs eval-mode features differ {mode_gap:.0%}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
