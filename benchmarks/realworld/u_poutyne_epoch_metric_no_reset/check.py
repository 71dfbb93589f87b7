import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_u_poutyne_epoch_metric_no_reset_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn, metric = t["model"], t["loss_fn"], t["metric_fn"]
    metric.reset()
    (xtr, ytr), (xva, yva) = t["train_data"], t["val_data"]
    opt = t["optimizer"](model.parameters())
    logged = []
    for epoch in range(8):
        for i in range(0, len(xtr), 32):
            out = model(xtr[i:i + 32])
            loss = loss_fn(out, ytr[i:i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
            metric(out, ytr[i:i + 32])
        with torch.no_grad():
            for i in range(0, len(xva), 32):
                metric(model(xva[i:i + 32]), yva[i:i + 32])
        logged.append(metric.get_metric())                    # never reset
    with torch.no_grad():
        p = model(xva).flatten()
    true_val = float(torch.corrcoef(torch.stack([p, yva]))[0, 1])
    # the same validation batch scored with and without history gives different values
    with torch.no_grad():
        fresh = mod.CorrelationMetric()
        one = fresh(model(xva[:32]), yva[:32])
        stale = metric(model(xva[:32]), yva[:32])
    assert true_val - logged[-1] > 0.1 and abs(one - stale) > 0.05, (logged, true_val, one, stale)
    return (f"logged epoch-8 correlation {logged[-1]:.3f} vs {true_val:.3f} on this epoch's val predictions; "
            f"same batch scores {one:.3f} fresh vs {stale:.3f} after earlier batches")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
