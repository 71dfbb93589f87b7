import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_nb_inpainting_needs_more_iters_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, (inputs, img), loss_fn = t["model"], t["batch"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    hist = []
    for _ in range(8 * mod.STEPS_RUN):
        opt.zero_grad()
        loss = loss_fn(model(*inputs), img)
        loss.backward()
        opt.step()
        hist.append(float(loss.detach()))
    s = mod.STEPS_RUN
    at_stop = sum(hist[s - 5:s]) / 5
    before_stop = sum(hist[s - 10:s - 5]) / 5
    later = sum(hist[-5:]) / 5
    assert before_stop - at_stop > 0.005, (before_stop, at_stop)  # still falling when the run was stopped
    assert later < 0.7 * at_stop, (at_stop, later)
    return (f"loss at the user's stopping point {at_stop:.3f} (still falling: {before_stop:.3f} five steps "
            f"earlier); training 8x longer reaches {later:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
