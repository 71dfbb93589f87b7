"""12 noisy training points and a wide net: the training loss goes below 1e-4 while the test loss stays above 1e-1."""

import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_i_deepxde_train_converges_test_not_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    vx, vy = t["val_data"]
    test_curve = []
    for step in range(3000):
        opt.zero_grad()
        loss = t["loss_fn"](model(x), y)
        loss.backward()
        opt.step()
        if step % 500 == 499:
            with torch.no_grad():
                test_curve.append(t["metric_fn"](model(vx), vy))
    train = loss.item()
    assert train < 1e-4 and test_curve[-1] > 1e-1, (train, test_curve)
    assert min(test_curve) < test_curve[-1], test_curve
    return f"3000 steps: training loss {train:.1e}, test loss {test_curve[-1]:.2f} (lowest on the way {min(test_curve):.2f})"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
