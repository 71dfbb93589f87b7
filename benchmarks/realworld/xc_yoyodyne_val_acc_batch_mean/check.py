import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xc_yoyodyne_val_acc_batch_mean_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    X, Y = t["train_data"]
    for step in range(40):
        i = (step * 128) % len(X)
        model.train()
        opt.zero_grad()
        loss_fn(model(X[i:i + 128]), Y[i:i + 128]).backward()
        opt.step()
    vx, vy = t["val_data"]
    out = t["eval_fn"](model, (vx, vy))
    reported = t["metric_fn"](out, vy)
    n_right = int((out.argmax(-1) == vy).all(dim=1).sum())
    n = len(vy)
    true_acc = n_right / n
    assert n == 1000 and n % 64 != 0
    assert abs(reported * n - round(reported * n)) > 1e-3, reported   # not k/1000 for any integer k
    assert abs(reported - true_acc) > 5e-4, (reported, true_acc)
    return (f"reported val accuracy {reported:.7f} on {n} forms, but {n_right}/{n} = {true_acc:.3f} are exactly right "
            f"(last eval batch holds {n % 64} forms)")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
