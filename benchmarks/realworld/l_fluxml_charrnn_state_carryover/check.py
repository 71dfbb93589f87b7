import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_l_fluxml_charrnn_state_carryover_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(3):
        for i in range(0, len(x), 16):
            opt.zero_grad()
            loss = loss_fn(model(x[i : i + 16]), y[i : i + 16])
            loss.backward()
            opt.step()
    model.eval()
    vx, vy = t["val_data"]
    with torch.no_grad():
        a = loss_fn(model(vx[:16]), vy[:16]).item()
        b = loss_fn(model(vx[:16]), vy[:16]).item()
        model(vx[16:32])  # an unrelated batch in between
        c = loss_fn(model(vx[:16]), vy[:16]).item()
        model.state = None
        fresh1 = loss_fn(model(vx[:16]), vy[:16]).item()
        model.state = None
        fresh2 = loss_fn(model(vx[:16]), vy[:16]).item()
    assert abs(a - b) > 1e-3 and abs(b - c) > 1e-3, (a, b, c)
    assert abs(fresh1 - fresh2) < 1e-6
    return f"same val batch evaluated three times in eval mode: {a:.3f}, {b:.3f}, {c:.3f}; with state reset each time: {fresh1:.3f} twice"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
