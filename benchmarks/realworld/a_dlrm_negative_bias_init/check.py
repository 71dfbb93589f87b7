import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_dlrm_negative_bias_init_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    inputs, y = t["batch"]
    dense = inputs[0]
    with torch.no_grad():
        bottom_out = model.bot_l(dense)
    before = [p.detach().clone() for p in model.bot_l.parameters()]
    opt = t["optimizer"](model.parameters())
    for _ in range(20):
        opt.zero_grad()
        loss_fn(model(*inputs), y).backward()
        opt.step()
    moved = max((p - b).abs().max().item() for p, b in zip(model.bot_l.parameters(), before))
    assert bottom_out.abs().max().item() == 0.0
    assert moved == 0.0, moved
    return (f"bottom-MLP output is exactly 0 for all {dense.size(0)} samples; after 20 SGD steps its "
            f"parameters moved by {moved}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
