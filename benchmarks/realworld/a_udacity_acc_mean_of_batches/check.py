import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_udacity_acc_mean_of_batches_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, metric = t["model"].eval(), t["metric_fn"]
    (x,), y = t["batch"]
    with torch.no_grad():
        out = model(x)
    true_acc = (out.argmax(1) == y).float().mean().item()
    reported = metric(out, y)
    other = metric(out, y, batch_size=50)
    assert abs(reported - true_acc) > 0.03, (reported, true_acc)
    assert abs(reported - other) > 0.01, (reported, other)
    return (f"reported accuracy {reported:.3f} (batch 64) / {other:.3f} (batch 50) vs true {true_acc:.3f} "
            f"on the same 100 predictions")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
