import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_d_fastai_gradaccum_sums_microbatches_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, step):
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for epoch in range(5):
        for i in range(0, len(x), 64):
            step(model, (x[i : i + 64], y[i : i + 64]), opt, loss_fn)
    vx, vy = t["val_data"]
    with torch.no_grad():
        return loss_fn(model(vx), vy).item()


def _plain_step(model, batch, optimizer, loss_fn):
    optimizer.zero_grad()
    loss = loss_fn(model(batch[0]), batch[1])
    loss.backward()
    optimizer.step()
    return loss


def _check() -> str:
    mod = _load()
    accum = _run(mod, mod.make_target()["train_step"])
    big_batch = _run(mod, _plain_step)
    first = mod.make_target()
    with torch.no_grad():
        start = first["loss_fn"](first["model"](first["val_data"][0]), first["val_data"][1]).item()
    accum = accum if accum == accum else float("inf")
    assert big_batch < 0.5 * start and accum > start, (start, big_batch, accum)
    return (f"5 epochs, same lr: val MSE {big_batch:.3f} with batches of 64, {accum:.3g} with 4x16 accumulated "
            f"(initial {start:.2f})")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
