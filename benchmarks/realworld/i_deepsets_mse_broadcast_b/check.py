import importlib.util
import pathlib
import warnings

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_i_deepsets_mse_broadcast_b_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(t, model, shape_fix):
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(6):
        for i in range(0, len(x), 64):
            out = model(x[i : i + 64])
            loss = t["loss_fn"](out.squeeze(-1) if shape_fix else out, y[i : i + 64])
            opt.zero_grad()
            loss.backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        pred = model(vx).squeeze(-1)
    return pred.std().item(), ((pred - vy) ** 2).mean().item(), vy.var().item()


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        std_bad, mse_bad, var = _train(t, t["model"], False)
    torch.manual_seed(0)
    std_ok, mse_ok, _ = _train(t, mod.DeepSet(), True)
    assert std_bad < 0.2 * var**0.5 and mse_bad > 0.8 * var and mse_ok < 0.3 * var, (std_bad, mse_bad, mse_ok, var)
    return (
        f"val predictions spread {std_bad:.3f} vs target spread {var**0.5:.3f}; val MSE {mse_bad:.3f} "
        f"(target variance {var:.3f}); {mse_ok:.3f} with matching shapes"
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
