import copy
import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_p_gtpyg_freeze_bn_undone_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn, step = t["model"], t["loss_fn"], t["train_step"]
    ref = copy.deepcopy(model)
    ref.eval()
    xs, ys = t["train_data"]
    opt = t["optimizer"](model.parameters())
    bn0 = ref.encoder[1].running_mean.clone()
    for i in range(0, 256, 32):
        step(model, (xs[i:i + 32], ys[i:i + 32]), opt, loss_fn)
    w_same = all(torch.equal(a, b) for a, b in zip(ref.encoder.parameters(), model.encoder.parameters()))
    bn_shift = (model.encoder[1].running_mean - bn0).abs().max().item()
    bn_training = model.encoder[1].training
    model.eval()
    probe = xs[:8]
    with torch.no_grad():
        e_ref = ref.encoder(probe)
        e_now = model.encoder(probe)
    cos = torch.nn.functional.cosine_similarity(e_ref, e_now, dim=1).mean().item()
    assert w_same and bn_training and bn_shift > 0.1 and cos < 0.98, (w_same, bn_training, bn_shift, cos)
    return (f"'frozen' encoder: weights unchanged, but its BatchNorm was back in training mode and running_mean moved "
            f"by up to {bn_shift:.2f}; frozen-encoder embeddings vs checkpoint cosine {cos:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
