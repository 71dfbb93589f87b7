import copy
import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wc_atom_frozen_backbone_bn_drift_target",
                                                  os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, (x, y) = t["model"], t["batch"]
    before = copy.deepcopy(model.backbone.state_dict())
    model.eval()
    with torch.no_grad():
        feat_before = model.backbone(x).clone()
    opt = t["optimizer"](model)
    for _ in range(20):
        t["train_step"](model, (x, y), opt, t["loss_fn"])
    after = model.backbone.state_dict()
    changed = [k for k in before if not torch.equal(before[k], after[k])]
    weights_changed = [k for k in changed if k.endswith("weight") or k.endswith("bias")]
    model.eval()
    with torch.no_grad():
        feat_after = model.backbone(x)
    drift = (feat_after - feat_before).abs().max().item()
    assert not weights_changed, weights_changed
    assert any("running_mean" in k for k in changed) and any("running_var" in k for k in changed), changed
    assert drift > 1e-2, drift
    return (f"after 20 head-only steps the 'frozen' backbone has {len(changed)} changed state entries "
            f"({', '.join(sorted(changed)[:3])}...) though no weight moved; eval features drift by {drift:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
