"""Every loaded input is all zeros: accuracy stays at 0.50 and the loss at ln 2; float scaling learns the task."""

import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_i_keras_int_division_zero_images_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(t, mod, data, val):
    torch.manual_seed(0)
    model = mod.ScreenNet()
    opt = t["optimizer"](model.parameters())
    x, y = data
    for _ in range(5):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            loss = t["loss_fn"](model(x[i : i + 32]), y[i : i + 32])
            loss.backward()
            opt.step()
    with torch.no_grad():
        return t["metric_fn"](model(val[0]), val[1]), loss.item()


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    assert t["train_data"][0].abs().max().item() == 0.0
    bad_acc, bad_loss = _train(t, mod, t["train_data"], t["val_data"])
    raw, y = mod.raw_screens(512, 1)
    vraw, vy = mod.raw_screens(256, 2)
    good_acc, _ = _train(t, mod, (raw.float() / 255, y), (vraw.float() / 255, vy))
    assert abs(bad_acc - 0.5) < 0.02 and abs(bad_loss - 0.693) < 0.01 and good_acc > 0.9, (bad_acc, bad_loss, good_acc)
    return f"inputs all zero after loading: val accuracy {bad_acc:.2f}, loss {bad_loss:.3f}; float scaling: accuracy {good_acc:.2f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
