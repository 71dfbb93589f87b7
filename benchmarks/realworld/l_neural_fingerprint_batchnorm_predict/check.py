import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_l_neural_fingerprint_batchnorm_predict_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(5):
        for i in range(0, len(x), 64):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 64]), y[i : i + 64]).backward()
            opt.step()
    vx, _ = t["val_data"]
    a, b = vx[0:1], vx[1:2]
    pair = t["eval_fn"](model, torch.cat([a, b]))[0].item()
    with_many = t["eval_fn"](model, vx[:32])[0].item()
    twice = t["eval_fn"](model, torch.cat([a, a, b]))
    again = t["eval_fn"](model, torch.cat([a, b]))[0].item()
    assert abs(pair - with_many) > 0.05, (pair, with_many)
    assert abs(twice[0] - twice[1]).item() < 1e-6 and pair == again
    return (
        f"same molecule predicted {pair:.3f} next to one other molecule, {with_many:.3f} in a batch of 32, "
        f"{twice[0].item():.3f} when duplicated (eval mode, reproducible)"
    )


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
