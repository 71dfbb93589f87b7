import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_naf_mask_added_not_multiplied_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, (s, targets), loss_fn = t["model"], t["batch"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    vals = []
    for step in range(300):
        opt.zero_grad()
        loss_fn(model(s), targets).backward()
        opt.step()
        if step % 100 == 99:
            with torch.no_grad():
                vals.append(float(model(s).mean()))
    _, _, mask = targets
    with torch.no_grad():
        v_terminal = float(model(s)[mask[:, 0] == 0].mean())
    # rewards are in [0, 1); a terminal transition's value should be about its reward (<1)
    assert vals[-1] > vals[0] + 5 and v_terminal > 5, (vals, v_terminal)
    return f"mean V(s) after 100/200/300 steps: {[round(v, 1) for v in vals]}; V on terminal transitions {v_terminal:.1f} (reward < 1)"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
