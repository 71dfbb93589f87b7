import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xa_transpeeder_long_prompt_nan_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    ids, labels = t["batch"]
    loss = loss_fn(model(ids), labels)
    supervised = int((labels[:, 1:] != -100).sum())
    losses = [loss_fn(model(x), y).item() for x, y in t["train_data"]]
    n_nan = sum(1 for v in losses if v != v)
    assert supervised == 0 and torch.isnan(loss), (supervised, loss)
    assert n_nan == len(losses) // 2, losses
    return (f"batch of {ids.shape[0]}x{ids.shape[1]} tokens has {supervised} supervised label positions; "
            f"loss = {loss.item()}; {n_nan}/{len(losses)} training batches give nan loss")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
