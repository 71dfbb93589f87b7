import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("yb_tinyyolo_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(mod, model, train, val, steps):
    opt = torch.optim.Adam(model.parameters(), lr=3e-2)
    hist = {}
    for step in range(1, steps + 1):
        x, y = train[(step - 1) % len(train)]
        opt.zero_grad()
        mod.yolo_loss(model(x), y).backward()
        opt.step()
        if step % 50 == 0:
            with torch.no_grad():
                tr = sum(mod.yolo_loss(model(a), b).item() for a, b in train) / len(train)
                va = mod.yolo_loss(model(val[0][0]), val[0][1]).item()
            hist[step] = (tr, va)
    return hist


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    h = _fit(mod, t["model"], t["train_data"], t["val_data"], 250)
    torch.manual_seed(0)
    wide = _fit(mod, mod.TinyYolo(width=8), t["train_data"], t["val_data"], 100)
    (tr2, va2), (tr3, va3) = h[150], h[250]
    assert abs(tr2 - tr3) < 0.07 * tr2, (tr2, tr3)           # plateau: little progress over the last 100 steps
    assert tr3 > 0.8 and va3 > 0.8, (tr3, va3)               # high on both splits
    assert va3 - tr3 < 0.25 * tr3, (tr3, va3)                # no large generalisation gap
    assert wide[100][0] < 0.5 * tr3, (wide[100], tr3)        # more capacity fits the same data far better
    return (f"1-filter detector: train/val loss {tr2:.3f}/{va2:.3f} at step 150 and {tr3:.3f}/{va3:.3f} at step 250; "
            f"8-filter version on the same data: {wide[100][0]:.3f}/{wide[100][1]:.3f} at step 100")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
