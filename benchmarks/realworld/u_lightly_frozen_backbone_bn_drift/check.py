import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_u_lightly_frozen_backbone_bn_drift_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model, batch = t["model"], t["batch"]
    params = list(model.parameters())
    opt = t["optimizer"](params)
    frozen = {k: v.clone() for k, v in model.backbone.state_dict().items()}
    probe = torch.randn(32, 16, generator=torch.Generator().manual_seed(5))
    model.eval()
    with torch.no_grad():
        emb_before = model.backbone(probe)
    for _ in range(30):
        t["train_step"](model, batch, opt, t["loss_fn"])
    sd = model.backbone.state_dict()
    weights_same = all(torch.equal(sd[k], frozen[k]) for k in frozen if "running" not in k and "num_batches" not in k)
    stats_moved = max(float((sd[k].float() - frozen[k].float()).abs().max()) for k in frozen if "running" in k)
    model.eval()
    with torch.no_grad():
        emb_after = model.backbone(probe)
    cos = torch.nn.functional.cosine_similarity(emb_before, emb_after).mean().item()
    all_frozen = all(not p.requires_grad for p in model.backbone.parameters())
    assert all_frozen and weights_same and stats_moved > 0.1 and cos < 0.98, (weights_same, stats_moved, cos)
    return (f"backbone weights unchanged and requires_grad=False, but BN running stats moved by up to {stats_moved:.2f}; "
            f"eval embeddings of the same inputs now have mean cosine {cos:.3f} to the originals")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
