import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_v_minkowski_cls_test_bs1_no_eval_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _acc(mod, model, x, y, bs):
    hits = []
    for i in range(0, len(x), bs):
        hits.append(mod.accuracy(mod.test(model, x[i : i + bs]), y[i : i + bs]) * len(x[i : i + bs]))
    return sum(hits) / len(x)


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    model.train()
    for epoch in range(3):
        for i in range(0, len(x), 8):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 8]), y[i : i + 8]).backward()
            opt.step()
    xv, yv = t["val_data"]
    state = {k: v.clone() for k, v in model.state_dict().items()}
    acc1 = _acc(mod, model, xv, yv, 1)
    model.load_state_dict(state)
    acc32 = _acc(mod, model, xv, yv, 32)
    model.load_state_dict(state)
    model.eval()
    acc_eval1 = _acc(mod, model, xv, yv, 1)
    assert acc1 < 0.4 and acc32 > acc1 + 0.3 and acc_eval1 > acc1 + 0.3, (acc1, acc32, acc_eval1)
    return (
        f"test() accuracy with batch size 1: {acc1:.2f}, batch size 32: {acc32:.2f}; "
        f"after model.eval(), batch size 1: {acc_eval1:.2f}"
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
