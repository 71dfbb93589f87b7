import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_h_intrinsic_flow_bn_test_batch_one_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    torch.manual_seed(0)
    t = _load().make_target()
    model, metric = t["model"], t["metric_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(6):
        for i in range(0, len(x), 8):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 8]), y[i : i + 8]).backward()
            opt.step()
    vx, vy = t["val_data"]

    def err(bs):
        with torch.no_grad():
            out = torch.cat([model(vx[i : i + bs]) for i in range(0, len(vx), bs)])
        return metric(out, vy)

    e8, e1 = err(8), err(1)
    model.eval()
    e1_eval = err(1)
    assert e1 > 3 * e8 and e1_eval > 3 * e8, (e8, e1, e1_eval)
    return f"test MSE {e8:.3f} with batches of 8, {e1:.3f} one image at a time ({e1_eval:.3f} after model.eval())"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
