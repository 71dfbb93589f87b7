import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_i_coral_shuffled_test_b_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(8):
        for i in range(0, len(x), 64):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 64]), y[i : i + 64]).backward()
            opt.step()
    with torch.no_grad():
        train_acc = t["metric_fn"](model(x), y)
        vx, vy = t["val_data"]
        test_acc = t["metric_fn"](model(vx), vy)
        ax, ay = mod._images(1000, 3)
        aligned_acc = t["metric_fn"](model(ax), ay)
    assert test_acc < 0.2 and train_acc > 0.5 and aligned_acc > 0.5, (train_acc, test_acc, aligned_acc)
    return (
        f"train accuracy {train_acc:.2f}, test accuracy {test_acc:.2f} (chance 0.10); "
        f"the same model scores {aligned_acc:.2f} on the test set kept in its original order"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
