import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_tsai_regression_target_1d_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    import warnings
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["train_data"]
    opt = t["optimizer"](model.parameters())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(80):
            opt.zero_grad()
            loss_fn(model(x), y).backward()
            opt.step()
    with torch.no_grad():
        pred = model(x).squeeze(1)
    true_mse = ((pred - y) ** 2).mean().item()
    assert true_mse > 0.8 * y.var().item(), (true_mse, y.var().item())
    assert pred.std().item() < 0.3 * y.std().item()
    return (f"after 80 steps per-series MSE {true_mse:.3f} vs target variance {y.var().item():.3f}; "
            f"prediction std {pred.std().item():.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
