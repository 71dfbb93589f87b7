import importlib.util
import pathlib
import warnings

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_c_conet_depth_target_broadcast_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, d = t["train_data"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for step in range(300):
            i = (step * 4) % 64
            opt.zero_grad()
            mod.depth_loss(model(x[i : i + 4]), d[i : i + 4]).backward()
            opt.step()
    assert any("target size" in str(w.message) for w in caught)
    vx, vd = t["val_data"]
    with torch.no_grad():
        err = float((model(vx).squeeze(1) - vd).abs().mean())
    spread = float((vd - vd.mean(0, keepdim=True)).abs().mean())
    fixed = mod.make_target()["model"]
    opt2 = torch.optim.Adam(fixed.parameters(), lr=1e-2)
    for step in range(300):
        i = (step * 4) % 64
        opt2.zero_grad()
        torch.nn.functional.smooth_l1_loss(fixed(x[i : i + 4]), d[i : i + 4].unsqueeze(1)).backward()
        opt2.step()
    with torch.no_grad():
        err_fixed = float((fixed(vx).squeeze(1) - vd).abs().mean())
    assert err > 0.6 * spread and err > 3 * err_fixed, (err, spread, err_fixed)
    return (
        f"size-mismatch warning raised; after 300 steps per-image depth error {err:.3f} vs {spread:.3f} for "
        f"predicting the batch-average depth; {err_fixed:.3f} with target.unsqueeze(1)"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
