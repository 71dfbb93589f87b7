import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_k_soft_tree_acc_over_dataset_len_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn, metric = t["model"], t["loss_fn"], t["metric_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    logged, true_acc, losses = [], [], []
    for epoch in range(5):
        for i in range(0, len(x), 64):
            out = model(x[i : i + 64])
            loss = loss_fn(out, y[i : i + 64])
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
            logged.append(metric(out.detach(), y[i : i + 64]))
            true_acc.append(out.argmax(1).eq(y[i : i + 64]).float().mean().item())
    xv, yv = t["val_data"]
    with torch.no_grad():
        val_acc = model(xv).argmax(1).eq(yv).float().mean().item()
    last = slice(-32, None)
    mean_logged = sum(logged[last]) / 32
    mean_true = sum(true_acc[last]) / 32
    assert losses[-1] < 0.5 * losses[0], (losses[0], losses[-1])
    assert val_acc > 0.6 and mean_true > 0.6, (val_acc, mean_true)
    assert mean_logged < 0.05 and mean_true > 20 * mean_logged, (mean_logged, mean_true)
    return (
        f"loss {losses[0]:.2f} -> {losses[-1]:.2f}, val acc {val_acc:.3f}, batch acc {mean_true:.3f}, "
        f"but the logged training accuracy is {mean_logged:.4f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
