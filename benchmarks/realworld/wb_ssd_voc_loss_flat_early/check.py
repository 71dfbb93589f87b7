import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wb_ssd_voc_loss_flat_early_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    X, (L, B) = t["train_data"]
    VX, VT = t["val_data"]
    opt = t["optimizer"](model.parameters())
    g = torch.Generator().manual_seed(0)
    marks = {}
    for step in range(1, 601):
        idx = torch.randint(0, len(X), (32,), generator=g)
        model.train()
        opt.zero_grad()
        loss_fn(model(X[idx]), (L[idx], B[idx])).backward()
        opt.step()
        if step in (150, 250, 600):
            model.eval()
            with torch.no_grad():
                marks[step] = (loss_fn(model(X), (L, B)).item(), loss_fn(model(VX), VT).item())
    tr150, tr250, tr600 = marks[150][0], marks[250][0], marks[600][0]
    va250, va600 = marks[250][1], marks[600][1]
    assert (tr150 - tr250) / tr150 < 0.1, (tr150, tr250)       # looks stuck over 100 steps
    assert tr600 < 0.65 * tr250, (tr250, tr600)                 # but keeps falling with more steps
    assert va600 < 0.8 * va250, (va250, va600)                # and held-out loss falls too
    return (f"train loss {tr150:.3f} -> {tr250:.3f} between steps 150 and 250 (looks flat), "
            f"then {tr600:.3f} at step 600; val loss {va250:.3f} -> {va600:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
