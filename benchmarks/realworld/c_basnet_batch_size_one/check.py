import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_c_basnet_batch_size_one_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(t, bs):
    torch.manual_seed(0)
    model = _load().ConvBN()
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(3):
        for i in range(0, len(x), bs):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + bs]), y[i : i + bs]).backward()
            opt.step()
    vx, vy = t["val_data"]
    model.eval()
    with torch.no_grad():
        return t["metric_fn"](model(vx), vy)


def _check() -> str:
    t = _load().make_target()
    acc1, acc8 = _train(t, 1), _train(t, 8)
    assert acc8 > 0.85 and acc1 < 0.7, (acc1, acc8)
    return f"3 epochs, same data: val accuracy {acc8:.2f} with batch size 8, {acc1:.2f} with batch size 1"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
