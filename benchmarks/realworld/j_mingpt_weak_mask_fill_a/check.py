import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_j_mingpt_weak_mask_fill_a_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(6):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            loss_fn(model(x[i : i + 32]), y[i : i + 32]).backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        val = loss_fn(model(vx), vy).item()
        # score position 0 with only its own token visible (as in generation) vs with the whole sequence
        full = loss_fn(model(vx)[:, :1], vy[:, :1]).item()
        alone = loss_fn(model(vx[:, :1]), vy[:, :1]).item()
    floor = math.log(mod.V)
    assert val < 0.8 * floor, (val, floor)
    assert alone > full + 0.3, (alone, full)
    return (
        f"random tokens (entropy {floor:.2f} nats): val loss {val:.2f}; first position scored {full:.2f} "
        f"with the rest of the sequence present, {alone:.2f} when fed alone as in generation"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
