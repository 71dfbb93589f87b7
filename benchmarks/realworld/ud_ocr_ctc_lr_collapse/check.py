import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ud_ocr_ctc_lr_collapse_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    T = _load()
    t = T.make_target()
    model, loss_fn, metric = t["model"], t["loss_fn"], t["metric_fn"]
    opt = t["optimizer"](model.parameters())
    train = t["train_data"]
    xv, yv = t["val_data"][0]
    losses = []
    for step in range(60):
        x, y = train[step % len(train)]
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    model.eval()
    with torch.no_grad():
        acc = metric(model(xv), yv)
    first, peak, last = losses[0], max(losses), sum(losses[-5:]) / 5
    assert peak > 1.5 * first, (first, peak)
    assert last > 2.0 and acc == 0.0, (last, acc)
    return (f"Adam at the configured lr: CTC loss {first:.2f} -> peak {peak:.2f} -> {last:.2f} after 60 steps, "
            f"val word accuracy {acc:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
