import copy
import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_n_robustdg_test_acc_in_train_mode_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for epoch in range(3):
        for i in range(0, len(x), 64):
            t["train_step"](model, (x[i : i + 64], y[i : i + 64]), opt, t["loss_fn"])
    saved = copy.deepcopy(model.state_dict())  # checkpoint written before the in-loop test pass
    xt, yt = t["val_data"]
    rm_before = model.body[1].running_mean.clone()
    in_loop = [mod.accuracy(t["eval_fn"](model, xt[i : i + 64]), yt[i : i + 64]) for i in range(0, len(xt), 64)]
    acc_loop = sum(in_loop) / len(in_loop)
    drift = (model.body[1].running_mean - rm_before).abs().max().item()
    fresh = mod.Net()
    fresh.load_state_dict(saved)
    fresh.eval()
    with torch.no_grad():
        acc_script = mod.accuracy(fresh(xt), yt)
    assert drift > 0.05, drift
    assert acc_loop - acc_script > 0.1, (acc_loop, acc_script)
    return (
        f"test acc logged in the training loop {acc_loop:.2f} vs {acc_script:.2f} from the saved checkpoint in eval mode; "
        f"the test pass moved BatchNorm running_mean by up to {drift:.2f}"
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
