import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wc_flair_macro_f_recall_is_precision_target",
                                                  os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    x, y = t["batch"]
    with torch.no_grad():
        out = t["model"](x)
    reported = t["metric_fn"](out, y)
    preds = out.argmax(-1)
    n = mod.N_CLASSES
    prec, rec = [], []
    for c in range(n):
        tp = int(((preds == c) & (y == c)).sum())
        fp = int(((preds == c) & (y != c)).sum())
        fn = int(((preds != c) & (y == c)).sum())
        prec.append(tp / (tp + fp) if tp + fp else 0.0)
        rec.append(tp / (tp + fn) if tp + fn else 0.0)
    P, R = sum(prec) / n, sum(rec) / n
    true_f = 2 * P * R / (P + R) if P + R else 0.0
    assert abs(reported - P) < 1e-9, (reported, P)
    assert abs(reported - true_f) > 0.05, (reported, true_f)
    return (f"logged macro F {reported:.3f} equals macro precision {P:.3f} exactly; with macro recall {R:.3f} "
            f"the same formula gives {true_f:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
