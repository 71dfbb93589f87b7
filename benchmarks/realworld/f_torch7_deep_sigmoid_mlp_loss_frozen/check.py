import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_f_torch7_deep_sigmoid_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(widths):
    mod = _load()
    t = mod.make_target()
    torch.manual_seed(0)
    model = mod.deep_mlp(widths)
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    losses, first_grad, last_grad = [], 0.0, 0.0
    for _ in range(8):
        for i in range(0, len(x), 64):
            loss = t["loss_fn"](model(x[i : i + 64]), y[i : i + 64])
            opt.zero_grad()
            loss.backward()
            first_grad = model[0].weight.grad.norm().item()
            last_grad = model[-2].weight.grad.norm().item()
            opt.step()
            losses.append(loss.item())
    start, end = sum(losses[:16]) / 16, sum(losses[-16:]) / 16
    return start, end, first_grad / last_grad


def _check() -> str:
    mod = _load()
    s_deep, e_deep, ratio = _train(mod.WIDTHS)
    s_flat, e_flat, _ = _train(mod.WIDTHS[:2])
    var = mod.make_target()["train_data"][1].var().item()
    assert e_deep > 0.95 * var, (s_deep, e_deep, var)  # no better than predicting the mean
    assert e_flat < 0.3 * var, (s_flat, e_flat, var)
    assert ratio < 1e-4, ratio
    return (
        f"12 sigmoid layers: loss {s_deep:.4f} -> {e_deep:.4f}, first/last layer grad norm {ratio:.1e}; "
        f"1 hidden layer: {s_flat:.4f} -> {e_flat:.4f} (target variance {var:.3f})"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
