"""Shows that the reported mAP ignores the detection confidences: it is computed from the 0/1 labels."""
import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("yc_midog_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _true_ap(mod, logits, labels):
    scores = logits.softmax(-1)[:, 1].tolist()
    gt = labels.tolist()
    return mod._average_precision(scores, [g == 1 for g in gt], sum(gt))


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, (x, y) = t["model"], t["batch"]
    opt = t["optimizer"](model.parameters())
    for _ in range(40):
        opt.zero_grad()
        t["loss_fn"](model(x), y).backward()
        opt.step()
    vx, vy = t["val_data"][0]
    with torch.no_grad():
        logits = model(vx)
    rep = mod.evaluate(logits, vy)
    true_ap = _true_ap(mod, logits, vy["labels"])
    # same thresholded decisions, but the confidences inside each side of the threshold reversed
    p = logits.softmax(-1)[:, 1]
    above = p > 0.5
    p2 = p.clone()
    p2[above] = 1.5 - p[above]
    p2[~above] = 0.5 - p[~above]
    logits2 = torch.stack([torch.log1p(-p2.clamp(max=1 - 1e-6)), torch.log(p2.clamp(min=1e-6))], 1)
    rep2 = mod.evaluate(logits2, vy)
    true_ap2 = _true_ap(mod, logits2, vy["labels"])
    assert abs(rep["mAP"] - true_ap) > 0.05, (rep, true_ap)
    assert abs(rep["mAP"] - rep2["mAP"]) < 1e-9 and abs(true_ap - true_ap2) > 0.02, (rep2, true_ap2)
    return (f"reported mAP {rep['mAP']:.3f} vs AP from the mitosis confidences {true_ap:.3f} (F1 {rep['f1']:.3f}); "
            f"reordering confidences without changing decisions: reported mAP {rep2['mAP']:.3f} unchanged, "
            f"true AP {true_ap2:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
