import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_j_vaal_test_without_eval_b_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    torch.manual_seed(0)
    model = mod.TaskNet()
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(8):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 32]), y[i : i + 32]).backward()
            opt.step()
    vx, vy = t["val_data"]
    acc = t["metric_fn"]
    model.train()  # the solver leaves the model as training left it
    a1 = acc(t["eval_fn"](model, (vx, vy)), vy)
    a2 = acc(t["eval_fn"](model, (vx, vy)), vy)
    model.eval()
    good = acc(t["eval_fn"](model, (vx, vy)), vy)
    assert good > 0.85, good
    assert max(a1, a2) < good - 0.08 and a1 != a2, (a1, a2, good)
    return f"test accuracy {a1:.2f} / {a2:.2f} on two calls without eval(), {good:.2f} in eval mode"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
