import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wa_flickr_style_finetune_overfit_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(mod, t, train, steps=150):
    torch.manual_seed(0)
    model = mod.Head()
    opt = t["optimizer"](model.parameters())
    for _ in range(steps):
        last = t["train_step"](model, train, opt, t["loss_fn"])
    tr = t["metric_fn"](t["eval_fn"](model, train[0]), train[1])
    te = t["metric_fn"](t["eval_fn"](model, t["val_data"][0][0]), t["val_data"][0][1])
    return last, tr, te


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    loss, tr, te = _fit(mod, t, t["batch"])
    _, tr_big, te_big = _fit(mod, t, mod.make_split(30, seed=2))
    assert tr >= 0.98 and loss < 0.05 and te < 0.6, (tr, loss, te)
    assert te_big > te + 0.15, (te, te_big)      # same code, more data: the gap closes
    return (f"160 train images: train loss {loss:.4f}, train acc {tr:.2f}, test acc {te:.2f}; "
            f"same code with 600 train images: test acc {te_big:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
