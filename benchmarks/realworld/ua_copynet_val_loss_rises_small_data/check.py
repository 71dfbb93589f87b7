import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ua_copynet_val_loss_rises_small_data_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    src, tgt = t["batch"]
    vsrc, vtgt = t["val_data"][0]
    train_hist, val_hist = [], []
    for step in range(80):
        model.train()
        opt.zero_grad()
        loss = loss_fn(model(src), tgt)
        loss.backward()
        opt.step()
        train_hist.append(loss.item())
        if step % 10 == 9:
            model.eval()
            with torch.no_grad():
                val_hist.append(loss_fn(model(vsrc), vtgt).item())
    best = min(val_hist)
    best_at = (val_hist.index(best) + 1) * 10
    assert train_hist[-1] < 0.2 * train_hist[0], train_hist[-1]
    assert val_hist[-1] > 1.3 * best, (best, val_hist[-1])
    assert best_at < 80
    return (f"train loss {train_hist[0]:.2f} -> {train_hist[-1]:.3f}; val loss bottoms at {best:.2f} "
            f"(step {best_at}) then rises to {val_hist[-1]:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        torch.manual_seed(0)
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
