import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ud_names_rnn_accuracy_first_row_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn, metric = t["model"], t["loss_fn"], t["metric_fn"]
    opt = t["optimizer"](model.parameters())
    losses = []
    for epoch in range(3):
        for b in t["train_data"]:
            losses.append(t["train_step"](model, b, opt, loss_fn))
    model.eval()
    xv, yv = t["val_data"][0]
    with torch.no_grad():
        out = model(xv)
    true_acc = (out.argmax(1) == yv).float().mean().item()
    # the same examples, presented in different orders within the batch
    reported = []
    for shift in range(8):
        perm = torch.roll(torch.arange(yv.shape[0]), shift)
        reported.append(metric(out[perm], yv[perm]))
    assert losses[-1] < 0.7 * losses[0], (losses[0], losses[-1])
    assert len(set(reported)) > 1, reported            # order of rows changes the "accuracy"
    assert all(r in (0.0, 1.0) for r in reported), reported
    assert any(abs(r - true_acc) > 0.2 for r in reported), (reported, true_acc)
    return (f"loss {losses[0]:.2f} -> {losses[-1]:.2f}; accuracy on one val batch reads {sorted(set(reported))} "
            f"depending on row order, while {true_acc:.2f} of the rows are classified correctly")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
