import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_h_capsule_em_raw_pixels_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, t, scale):
    torch.manual_seed(0)
    model = mod.CapsLike()
    opt = t["optimizer"](model.parameters())
    x, (_, y) = t["train_data"]
    x = x * scale
    for _ in range(4):
        for i in range(0, len(x), 32):
            xb = x[i : i + 32]
            loss = t["loss_fn"](model(xb), (xb, y[i : i + 32]))
            opt.zero_grad()
            loss.backward()
            opt.step()
    vx, (_, vy) = t["val_data"]
    vx = vx * scale
    with torch.no_grad():
        out = model(vx)
        return t["metric_fn"](out, (vx, vy)), t["loss_fn"](out, (vx, vy)).item()


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    acc_raw, loss_raw = _run(mod, t, 1.0)
    acc_scaled, loss_scaled = _run(mod, t, 1 / 255)
    assert loss_raw > 100 * loss_scaled and acc_raw < acc_scaled - 0.2, (acc_raw, loss_raw, acc_scaled, loss_scaled)
    return f"raw 0-255 pixels: val loss {loss_raw:.0f}, acc {acc_raw:.2f}; pixels/255: val loss {loss_scaled:.2f}, acc {acc_scaled:.2f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
