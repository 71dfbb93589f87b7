import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_g_yolov3_map_flat_mid_schedule_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    vx, vy = t["val_data"]
    sched = mod.make_scheduler(opt, len(x) // 50)
    accs = []
    for _ in range(mod.EPOCHS):
        model.train()
        for i in range(0, len(x), 50):
            opt.zero_grad()
            F.cross_entropy(model(x[i : i + 50]), y[i : i + 50]).backward()
            opt.step()
            sched.step()
        model.eval()
        with torch.no_grad():
            accs.append((model(vx).argmax(1) == vy).float().mean().item())
    early = accs[6:12]  # epochs 7-12 of 60, the point the report was written at (40 of 273)
    spread = max(early) - min(early)
    final = max(accs[-5:])
    assert spread < 0.06 and final > max(early) + 0.05, (early, final)
    return f"val accuracy epochs 7-12 within {spread:.3f} of each other (best {max(early):.3f}); after the full schedule {final:.3f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
