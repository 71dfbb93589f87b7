import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ta_xview3_fishing_precision_always_one_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"].eval()
    x, gt = t["batch"]
    with torch.no_grad():
        pred = model(x) > 0
    g = gt.bool()
    prec, rec, _ = mod.compute_fishing_class_performance(pred, g)
    tp = (pred & g).sum().item()
    fp = (pred & ~g).sum().item()
    true_prec = tp / max(tp + fp, 1)
    assert fp > 10, fp
    assert prec == 1.0 and true_prec < 0.8, (prec, true_prec)
    return (f"reported fishing precision {prec:.2f} (recall {rec:.2f}) for an untrained head that has {fp} false "
            f"positives; counted from the predictions the precision is {true_prec:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
