import importlib.util
import pathlib
import warnings

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_f_neuralsolvers_ic_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(loss_fn):
    mod = _load()
    t = mod.make_target()
    torch.manual_seed(0)
    model = mod.PINN()
    opt = t["optimizer"](model.parameters())
    x, u = t["train_data"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(40):
            for i in range(0, len(x), 128):
                loss = loss_fn(model(x[i : i + 128]), u[i : i + 128])
                opt.zero_grad()
                loss.backward()
                opt.step()
    vx, vu = t["val_data"]
    with torch.no_grad():
        return F.mse_loss(model(vx).squeeze(1), vu).item(), vu.var().item()


def _check() -> str:
    t = _load().make_target()
    x, u = t["batch"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t["loss_fn"](t["model"](x), u)
    assert any("target size" in str(w.message) for w in caught), [str(w.message) for w in caught]
    err_bug, var = _fit(t["loss_fn"])
    err_ok, _ = _fit(lambda out, target: F.mse_loss(out.squeeze(1), target))
    assert err_bug > 0.8 * var and err_ok < 0.3 * var, (err_bug, err_ok, var)
    return f"broadcast warning fires; val MSE of u0 {err_bug:.3f} (variance {var:.3f}) vs {err_ok:.3f} with matching shapes"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
