import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ud_pose_keypoints_val_loss_rises_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    (xt, yt), (xv, yv) = t["train_data"], t["val_data"]
    tr, va = [], []
    for step in range(300):
        model.train()
        opt.zero_grad()
        loss = loss_fn(model(xt), yt)
        loss.backward()
        opt.step()
        if step % 10 == 0 or step == 299:
            model.eval()
            with torch.no_grad():
                tr.append(loss.item())
                va.append(loss_fn(model(xv), yv).item())
    best = min(va)
    best_at = va.index(best)
    assert tr[-1] < 0.05 * tr[0], (tr[0], tr[-1])
    assert best < 0.95 * va[0] and best_at < len(va) - 5, (va[0], best, best_at)
    assert va[-1] > 1.15 * best and va[-1] > 3 * tr[-1], (best, va[-1], tr[-1])
    return (f"train loss {tr[0]:.3f} -> {tr[-1]:.3f}; val loss {va[0]:.3f} bottoms at {best:.3f} (step ~{best_at * 10}) "
            f"then climbs to {va[-1]:.3f} with {xt.shape[0]} training examples")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
