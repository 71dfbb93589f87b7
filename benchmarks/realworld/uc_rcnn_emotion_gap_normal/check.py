import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("uc_rcnn_emotion_gap_normal_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    (xtr, ytr), (xva, yva) = t["train_data"], t["val_data"]
    opt = t["optimizer"](model.parameters())
    val_curve = []
    for step in range(60):
        model.train()
        opt.zero_grad()
        loss_fn(model(xtr), ytr).backward()
        opt.step()
        if step % 12 == 11:
            model.eval()
            with torch.no_grad():
                val_curve.append(mod.accuracy(model(xva), yva))
    model.eval()
    with torch.no_grad():
        tr = mod.accuracy(model(xtr), ytr)
        va = mod.accuracy(model(xva), yva)
    # healthy model: it learns the cue words (well above 25% chance) but memorises the 20% flipped labels
    assert tr > 0.95, tr
    assert 0.5 < va < 0.9, va
    assert tr - va > 0.1, (tr, va)
    return (f"train accuracy {tr:.2f} vs validation {va:.2f} (chance 0.25, label noise 20%); "
            f"validation every 12 steps: {', '.join(f'{v:.2f}' for v in val_curve)}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
