import copy
import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wa_memseg_notebook_train_mode_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    for epoch in range(6):
        for batch in t["train_data"]:
            t["train_step"](model, batch, opt, loss_fn)
    ckpt = copy.deepcopy(model.state_dict())
    vx, vy = t["val_data"][0]

    # "test.py": the same checkpoint, in eval mode
    ref = mod.TinySeg()
    ref.load_state_dict(ckpt)
    ref.eval()
    with torch.no_grad():
        ref_logits = ref(vx)

    # "inference.ipynb": the user's eval_fn on the same checkpoint, one image at a time and as a batch
    nb = mod.TinySeg()
    nb.load_state_dict(ckpt)
    single = torch.cat([t["eval_fn"](nb, vx[i:i + 1]) for i in range(4)])
    batched = t["eval_fn"](nb, vx[:4])
    gap_ref = (single - ref_logits[:4]).abs().max().item()
    gap_batch = (single - batched).abs().max().item()
    stats_moved = not torch.allclose(nb.enc1[1].running_mean, ckpt["enc1.1.running_mean"])
    score_ref = torch.softmax(ref_logits[:4], 1)[:, 1].amax((1, 2))
    score_nb = torch.softmax(single, 1)[:, 1].amax((1, 2))
    assert gap_ref > 1e-3 and gap_batch > 1e-3 and stats_moved, (gap_ref, gap_batch, stats_moved)
    return (f"same checkpoint, same images: notebook logits differ from test-mode logits by up to {gap_ref:.3f}, "
            f"single vs batched by {gap_batch:.3f}; BN running stats changed by inference: {stats_moved}; "
            f"per-image anomaly scores {[round(v, 3) for v in score_ref.tolist()]} vs {[round(v, 3) for v in score_nb.tolist()]}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
