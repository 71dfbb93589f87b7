import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_h_resemotenet_split_duplicates_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    torch.manual_seed(0)
    mod = _load()
    t = mod.make_target()
    model, metric = t["model"], t["metric_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(40):
        for i in range(0, len(x), 50):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 50]), y[i : i + 50]).backward()
            opt.step()
    vx, vy = t["val_data"]
    nx, ny = mod._faces(400, 9)  # new faces, never in any split
    with torch.no_grad():
        acc_val, acc_new = metric(model(vx), vy), metric(model(nx), ny)
        shared = (vx[:, None, :] == x[None, :, :]).all(-1).any(1).float().mean().item()
    assert shared > 0.3 and acc_val > acc_new + 0.2, (shared, acc_val, acc_new)
    return f"{shared:.0%} of the shipped validation rows are training rows; val accuracy {acc_val:.2f} vs {acc_new:.2f} on new faces"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
