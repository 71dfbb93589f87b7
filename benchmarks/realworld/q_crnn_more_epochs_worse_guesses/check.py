"""Train the target for a long time: training loss keeps falling to ~0 and train accuracy hits 100%, while held-out
accuracy peaks early and then declines and held-out loss climbs: overfitting, not a defect."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _target():
    spec = importlib.util.spec_from_file_location("q_crnn_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _target().make_target()
    model = t["model"]
    x, y = t["train_data"]
    xv, yv = t["val_data"]
    opt = t["optimizer"](model.parameters())
    hist = []
    for ep in range(150):
        for i in range(0, len(x), 50):
            loss = t["loss_fn"](model(x[i:i + 50]), y[i:i + 50])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if ep % 5 == 4:
            with torch.no_grad():
                out, outv = model(x), model(xv)
                hist.append((ep + 1, F.cross_entropy(out, y).item(), (out.argmax(1) == y).float().mean().item(),
                             F.cross_entropy(outv, yv).item(), (outv.argmax(1) == yv).float().mean().item()))
    best = max(hist, key=lambda h: h[4])
    last = hist[-1]
    min_vloss = min(h[3] for h in hist)
    assert last[1] < 0.05 and last[2] == 1.0, last
    assert best[4] > last[4] + 0.03, (best, last)
    assert last[3] > 1.3 * min_vloss, (last, min_vloss)
    return (f"epoch {best[0]}: held-out acc {best[4]:.3f} (best); epoch {last[0]}: train loss {last[1]:.4f}, train acc "
            f"{last[2]:.2f}, held-out acc {last[4]:.3f}, held-out loss {last[3]:.2f} vs minimum {min_vloss:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
