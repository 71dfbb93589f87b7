import copy
import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xa_llm_finetuner_single_epoch_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    samples = [s for s, _ in t["train_data"]]
    with torch.no_grad():
        start = loss_fn(model(x), y).item()
    short = mod.train(copy.deepcopy(model), samples, epochs=mod.EPOCHS)
    long_ = mod.train(copy.deepcopy(model), samples, epochs=100)
    with torch.no_grad():
        l_short = loss_fn(short(x), y).item()
        l_long = loss_fn(long_(x), y).item()
    steps = mod.EPOCHS * len(samples)
    assert l_short > 0.95 * start, (start, l_short)
    assert l_long < 0.5 * l_short, (l_short, l_long)
    return (f"initial loss {start:.3f}; after the run's {steps} optimizer steps ({mod.EPOCHS} epoch) {l_short:.3f}; "
            f"same code after 100 epochs {l_long:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
