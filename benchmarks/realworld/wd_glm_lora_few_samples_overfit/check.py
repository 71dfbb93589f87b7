import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wd_glm_lora_few_samples_overfit_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    (train_ids, _), = t["train_data"]
    (val_ids, _), = t["val_data"]
    opt = t["optimizer"](model.parameters())
    train_curve, val_curve = [], []
    for step in range(60):
        model.train()
        opt.zero_grad()
        loss = loss_fn(model(train_ids), train_ids)
        loss.backward()
        opt.step()
        if step % 10 == 0 or step == 59:
            model.eval()
            with torch.no_grad():
                train_curve.append(loss.item())
                val_curve.append(loss_fn(model(val_ids), val_ids).item())
    best_val = min(val_curve)
    assert train_curve[-1] < 0.1 * train_curve[0], train_curve
    assert val_curve[-1] > best_val + 0.5, val_curve
    assert val_curve[-1] > 10 * train_curve[-1], (val_curve[-1], train_curve[-1])
    return (f"12-example fine-tune: train loss {train_curve[0]:.2f} -> {train_curve[-1]:.3f}; held-out loss "
            f"bottoms at {best_val:.2f} then climbs to {val_curve[-1]:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
