import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_caption_lm_double_shift_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, (ids, labels), loss_fn = t["model"], t["batch"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    for _ in range(150):
        opt.zero_grad()
        loss = loss_fn(model(ids), labels)
        loss.backward()
        opt.step()
    test = mod.make_batch(seed=1)
    with torch.no_grad():
        pred = model(test).argmax(-1)
    acc_next = float((pred[:, :-1] == test[:, 1:]).float().mean())
    acc_skip = float((pred[:, :-2] == test[:, 2:]).float().mean())
    assert acc_skip > 0.8 and acc_next < 0.3, (acc_next, acc_skip)
    return (f"train loss {float(loss.detach()):.3f}; argmax matches token t+1 in {acc_next:.0%} of positions "
            f"but token t+2 in {acc_skip:.0%}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
