"""Same data and epochs: validation depth error with batch size 2 is several times the batch-size-12 error."""

import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_i_deviant_bn_batch_two_depth_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, t, bs):
    torch.manual_seed(0)
    model = mod.DepthNet()
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(4):
        for i in range(0, len(x), bs):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + bs]), y[i : i + bs]).backward()
            opt.step()
    vx, vy = t["val_data"]
    model.eval()
    with torch.no_grad():
        return t["metric_fn"](model(vx), vy)


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    err2, err12 = _train(mod, t, 2), _train(mod, t, 12)
    assert err2 > 2.5 * err12, (err2, err12)
    return f"4 epochs: validation depth error {err12:.2f} with batch size 12, {err2:.2f} with batch size 2"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
