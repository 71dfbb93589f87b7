import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_h_yolov4_head_sigmoid_bcelogits_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, raw_logits):
    torch.manual_seed(0)
    t = mod.make_target()
    model = t["model"]
    fwd = (lambda x: model.pred(model.body(x))) if raw_logits else model
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(400):
        opt.zero_grad()
        loss = t["loss_fn"](fwd(x), y)
        loss.backward()
        opt.step()
    return loss.item()


def _check() -> str:
    mod = _load()
    loss_bug, loss_ok = _train(mod, False), _train(mod, True)
    assert loss_bug > 0.4 and loss_ok < 0.1, (loss_bug, loss_ok)
    return f"400 full-batch steps: train loss {loss_bug:.3f} with sigmoid outputs into BCEWithLogitsLoss vs {loss_ok:.3f} with raw logits"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
