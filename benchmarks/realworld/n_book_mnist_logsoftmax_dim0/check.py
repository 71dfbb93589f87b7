import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_n_book_mnist_logsoftmax_dim0_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for epoch in range(6):
        for i in range(0, len(x), 64):
            opt.zero_grad()
            loss_fn(model(x[i : i + 64]), y[i : i + 64]).backward()
            opt.step()
    xv, yv = t["val_data"]
    model.eval()
    with torch.no_grad():
        out_batched = model(xv)
        acc_batched = mod.accuracy(out_batched, yv)
        preds_single = torch.cat([model(xv[i : i + 1]).argmax(1) for i in range(len(xv))])
        acc_single = (preds_single == yv).float().mean().item()
        row_sums = out_batched.exp().sum(1)
    assert acc_single < 0.2 and (preds_single == 0).all(), (acc_single, preds_single[:10])
    assert acc_batched > acc_single + 0.2, (acc_batched, acc_single)
    assert (row_sums - 1).abs().max() > 0.5, row_sums[:5]
    return (
        f"val acc {acc_batched:.2f} when scored in a batch of {len(xv)}, {acc_single:.2f} one image at a time (always class 0); "
        f"per-image probabilities sum to {row_sums.min():.2f}..{row_sums.max():.2f}"
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
