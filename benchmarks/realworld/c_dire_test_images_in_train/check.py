import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_c_dire_test_images_in_train_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    (x, y), (tx, ty) = t["train_data"], t["val_data"]
    for _ in range(400):
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()
    shared = (tx.unsqueeze(1) == x.unsqueeze(0)).all(-1).any(1)
    clean_x, clean_y = mod._pool(400, 3)
    with torch.no_grad():
        acc_test = t["metric_fn"](model(tx), ty)
        acc_shared = t["metric_fn"](model(tx[shared]), ty[shared])
        acc_clean = t["metric_fn"](model(clean_x), clean_y)
    assert int(shared.sum()) == 124
    assert acc_shared > 0.95 and acc_test - acc_clean > 0.15, (acc_test, acc_shared, acc_clean)
    return (
        f"{int(shared.sum())}/200 test rows are training rows; test accuracy {acc_test:.2f} "
        f"(shared rows {acc_shared:.2f}) vs {acc_clean:.2f} on a truly unseen sample"
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
