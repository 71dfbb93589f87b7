import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_h_landmark_regression_loss_dominates_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, t, reg_weight):
    torch.manual_seed(0)
    model = mod.TwoHead()
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(15):
        for i in range(0, len(x), 32):
            out = model(x[i : i + 32])
            cls = F.cross_entropy(out["cls"], y["cls"][i : i + 32])
            reg = F.mse_loss(out["reg"], y["reg"][i : i + 32])
            opt.zero_grad()
            (cls + reg_weight * reg).backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        out = model(vx)
        return (
            t["metric_fn"](out, vy),
            F.cross_entropy(out["cls"], vy["cls"]).item(),
            F.mse_loss(out["reg"], vy["reg"]).item(),
        )


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    acc_sum, ce_sum, mse_sum = _run(mod, t, 1.0)
    acc_bal, _, _ = _run(mod, t, 1.0 / 3600.0)
    assert mse_sum > 100 and ce_sum < 1 and acc_sum < 0.7 and acc_bal > acc_sum + 0.2, (
        acc_sum,
        ce_sum,
        mse_sum,
        acc_bal,
    )
    return f"plain sum: cls loss {ce_sum:.2f}, reg loss {mse_sum:.0f}, cls acc {acc_sum:.2f}; regression scaled down: cls acc {acc_bal:.2f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
