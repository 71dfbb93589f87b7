import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_vlm_labels_equal_inputs_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, (ids, labels), loss_fn = t["model"], t["batch"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    first = None
    for _ in range(150):
        opt.zero_grad()
        loss = loss_fn(model(ids), labels)
        loss.backward()
        opt.step()
        first = float(loss.detach()) if first is None else first
    final = float(loss.detach())
    floor = math.log(mod.VOCAB - 1)  # tokens are i.i.d. uniform: no next-token model can beat this
    assert final < 0.2 * floor, (first, final, floor)
    return (f"loss {first:.2f} -> {final:.3f} on i.i.d. random caption tokens, far below the next-token "
            f"floor ln(49)={floor:.2f}: the labels are the inputs")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
