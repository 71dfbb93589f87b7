import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ud_sam_cosine_horizon_one_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    T = _load()
    t = T.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    base = opt.param_groups[0]["lr"]
    lrs = []
    for i in range(20):
        lrs.append(opt.param_groups[0]["lr"])
        t["train_step"](model, t["train_data"][i % len(t["train_data"])], opt, t["loss_fn"])
    near_zero = sum(lr < 0.05 * base for lr in lrs)
    back_at_peak = sum(lr > 0.95 * base for lr in lrs[1:])
    assert near_zero >= 5, lrs
    assert back_at_peak >= 5, lrs
    return (f"over 20 iterations of a {T.TRAIN_CFG['max_iter']}-iteration run the lr hits ~0 {near_zero} times and "
            f"returns to the peak {back_at_peak} times: {[f'{v:.0e}' for v in lrs[:6]]}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
